import { describe, expect, it } from "vitest";
import { KNOWN_CARRIER_NAMES, resolveTracking, trackingUrlFor } from "../../src/orders/carrier-tracking.ts";

describe("trackingUrlFor", () => {
	it("builds the tracking page of UPS, USPS, FedEx and DHL from the number", () => {
		expect(trackingUrlFor("UPS", "1Z999AA10123456784")).toBe("https://www.ups.com/track?tracknum=1Z999AA10123456784");
		expect(trackingUrlFor("USPS", "9400111899223100000000")).toBe(
			"https://tools.usps.com/go/TrackConfirmAction?tLabels=9400111899223100000000",
		);
		expect(trackingUrlFor("FedEx", "794698765432")).toBe("https://www.fedex.com/fedextrack/?trknbr=794698765432");
		expect(trackingUrlFor("DHL", "JD0146000012")).toBe(
			"https://www.dhl.com/global-en/home/tracking/tracking-express.html?submit=1&tracking-id=JD0146000012",
		);
	});

	it("knows a carrier however it is written: case, dots, spaces and its long name", () => {
		for (const name of [
			"ups",
			" United Parcel  Service ",
			"U.S. Postal Service",
			"fedex",
			"Federal Express",
			"DHL Express",
		]) {
			expect(trackingUrlFor(name, "1"), name).not.toBeNull();
		}
	});

	it("puts the number into the URL encoded, so a number cannot add a parameter or a path", () => {
		expect(trackingUrlFor("UPS", "1Z 9&x=/y")).toBe("https://www.ups.com/track?tracknum=1Z%209%26x%3D%2Fy");
	});

	it("has no page for a carrier it does not know", () => {
		expect(trackingUrlFor("Harbour Couriers", "HC-1")).toBeNull();
	});
});

describe("resolveTracking", () => {
	it("keeps a URL given, even for a known carrier", () => {
		expect(resolveTracking({ carrier: "UPS", number: "1Z1", url: "https://carrier.example/t/1Z1" })).toEqual({
			ok: true,
			tracking: { carrier: "UPS", number: "1Z1", url: "https://carrier.example/t/1Z1" },
		});
	});

	it("builds the URL left out for a known carrier, keeping the carrier as written", () => {
		expect(resolveTracking({ carrier: "fedex", number: "7946" })).toEqual({
			ok: true,
			tracking: { carrier: "fedex", number: "7946", url: "https://www.fedex.com/fedextrack/?trknbr=7946" },
		});
	});

	it("refuses an unknown carrier without a URL, naming the carriers whose URL may be left out", () => {
		expect(KNOWN_CARRIER_NAMES).toBe("UPS, USPS, FedEx, DHL");
		expect(resolveTracking({ carrier: "Harbour Couriers", number: "HC-1" })).toEqual({
			ok: false,
			message:
				'is needed for carrier "Harbour Couriers": only UPS, USPS, FedEx, DHL tracking URLs follow from the number',
		});
	});
});
