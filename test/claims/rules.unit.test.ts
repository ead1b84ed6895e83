import { describe, expect, it } from "vitest";
import {
	claimableUnits,
	claimWindow,
	itemClaimable,
	type StandingUnits,
	shipmentClaimable,
} from "../../src/claims/rules.ts";
import type { ShipmentRow } from "../../src/orders/shipments.ts";

const SHIPPED_AT = "2026-11-01T12:00:00.000Z";
const DELIVERED_AT = "2026-11-04T12:00:00.000Z";

function shipment(overrides: Partial<ShipmentRow> = {}): ShipmentRow {
	return {
		id: "shp_1",
		order_id: "ord_1",
		position: 1,
		items: [{ item_id: "itm_a", quantity: 2 }],
		tracking: { carrier: "UPS", number: "1Z", url: "https://ups.example/1Z" },
		packages: [],
		status: "in_transit",
		shipped_at: SHIPPED_AT,
		delivered_at: null,
		returned_at: null,
		...overrides,
	};
}

const NONE: StandingUnits = { lost: new Map(), arrived: new Map() };

const delivered = (overrides: Partial<ShipmentRow> = {}) =>
	shipment({ status: "delivered", delivered_at: DELIVERED_AT, ...overrides });

/** `days` (and `ms` more) after `from`. */
function daysAfter(from: string, days: number, ms = 0): Date {
	return new Date(Date.parse(from) + days * 86_400_000 + ms);
}

describe("shipmentClaimable, with the clock moved", () => {
	it("lost_in_transit: refused 1 ms before 5 days in transit, allowed at exactly 5 days", () => {
		expect(shipmentClaimable(shipment(), "lost_in_transit", daysAfter(SHIPPED_AT, 5, -1))).toContain("5 days");
		expect(shipmentClaimable(shipment(), "lost_in_transit", daysAfter(SHIPPED_AT, 5))).toBe(true);
		expect(shipmentClaimable(shipment(), "lost_in_transit", daysAfter(SHIPPED_AT, 90))).toBe(true);
	});

	it("lost_in_transit: a delivered or returned shipment is never lost", () => {
		expect(shipmentClaimable(delivered(), "lost_in_transit", daysAfter(SHIPPED_AT, 10))).toContain("was delivered");
		const returned = shipment({ status: "returned", returned_at: DELIVERED_AT });
		expect(shipmentClaimable(returned, "lost_in_transit", daysAfter(SHIPPED_AT, 10))).toContain("came back");
	});

	it("every other reason: refused before delivery, allowed up to exactly 30 days after it, refused 1 ms later", () => {
		for (const reason of ["damaged_in_transit", "print_defect", "frame_defect", "wrong_item"] as const) {
			expect(shipmentClaimable(shipment(), reason, daysAfter(SHIPPED_AT, 2))).toContain("not delivered yet");
			expect(shipmentClaimable(delivered(), reason, daysAfter(DELIVERED_AT, 0))).toBe(true);
			expect(shipmentClaimable(delivered(), reason, daysAfter(DELIVERED_AT, 30))).toBe(true);
			expect(shipmentClaimable(delivered(), reason, daysAfter(DELIVERED_AT, 30, 1))).toContain(
				"30 days after delivery",
			);
		}
	});
});

describe("claimWindow", () => {
	it("counts only the units in shipments that may be claimed now, and names the entry at fault", () => {
		const shipments = [
			delivered({ id: "shp_1", items: [{ item_id: "itm_a", quantity: 1 }] }),
			shipment({ id: "shp_2", position: 2, items: [{ item_id: "itm_a", quantity: 1 }] }),
		];
		const now = daysAfter(DELIVERED_AT, 1);
		expect(claimWindow(shipments, NONE, "print_defect", [{ item_id: "itm_a", quantity: 1 }], now)).toMatchObject({
			ok: true,
		});
		const refused = claimWindow(shipments, NONE, "print_defect", [{ item_id: "itm_a", quantity: 2 }], now);
		expect(refused).toMatchObject({ ok: false, code: "claim_not_allowed", field: "items[0].quantity" });
	});

	it("an item in no shipment has not shipped yet", () => {
		const refused = claimWindow([shipment()], NONE, "wrong_item", [{ item_id: "itm_b", quantity: 1 }], new Date());
		expect(refused).toMatchObject({ ok: false, field: "items[0].item_id", message: "itm_b has not shipped yet" });
	});
});

describe("itemClaimable: a unit is claimed once, in one kind of box", () => {
	const boxes = [
		delivered({ id: "shp_1", items: [{ item_id: "itm_a", quantity: 1 }] }),
		shipment({ id: "shp_2", position: 2, items: [{ item_id: "itm_a", quantity: 1 }] }),
	];
	const now = daysAfter(SHIPPED_AT, 6);

	it("a damage claim holds the delivered unit; a loss holds the undelivered one", () => {
		const damaged: StandingUnits = { lost: new Map(), arrived: new Map([["itm_a", 1]]) };
		expect(itemClaimable(boxes, damaged, "itm_a", "damaged_in_transit", now)).toMatchObject({ eligible: 1, left: 0 });
		expect(itemClaimable(boxes, damaged, "itm_a", "lost_in_transit", now)).toMatchObject({ eligible: 1, left: 1 });
		const lost: StandingUnits = { lost: new Map([["itm_a", 1]]), arrived: new Map() };
		expect(itemClaimable(boxes, lost, "itm_a", "lost_in_transit", now)).toMatchObject({ eligible: 1, left: 0 });
		expect(itemClaimable(boxes, lost, "itm_a", "print_defect", now)).toMatchObject({ eligible: 1, left: 1 });
	});

	it("a loss whose box was delivered since holds a delivered unit", () => {
		const both = [
			boxes[0] ?? delivered(),
			delivered({ id: "shp_2", position: 2, items: [{ item_id: "itm_a", quantity: 1 }] }),
		];
		const lost: StandingUnits = { lost: new Map([["itm_a", 1]]), arrived: new Map() };
		expect(itemClaimable(both, lost, "itm_a", "print_defect", now)).toMatchObject({ eligible: 2, left: 1 });
	});

	it("a standing claim is read as holding a box past its time before one a new claim may name", () => {
		const late = daysAfter(DELIVERED_AT, 40);
		const old = delivered({ id: "shp_1", items: [{ item_id: "itm_a", quantity: 1 }] });
		const recent = delivered({
			id: "shp_2",
			position: 2,
			delivered_at: daysAfter(DELIVERED_AT, 20).toISOString(),
			items: [{ item_id: "itm_a", quantity: 1 }],
		});
		const damaged: StandingUnits = { lost: new Map(), arrived: new Map([["itm_a", 1]]) };
		expect(itemClaimable([old, recent], damaged, "itm_a", "print_defect", late)).toMatchObject({
			eligible: 1,
			left: 1,
		});
	});
});

describe("claimableUnits", () => {
	const items = [{ id: "itm_a" }, { id: "itm_b" }];

	it("allows the shipped units less those in standing claims, and refuses one more on its entry", () => {
		const claimed: StandingUnits = { lost: new Map(), arrived: new Map([["itm_a", 1]]) };
		expect(claimableUnits(items, [shipment()], claimed, [{ item_id: "itm_a", quantity: 1 }])).toMatchObject({
			ok: true,
		});
		expect(claimableUnits(items, [shipment()], claimed, [{ item_id: "itm_a", quantity: 2 }])).toMatchObject({
			ok: false,
			code: "claim_units_exceeded",
			field: "items[0].quantity",
		});
	});

	it("leaves an item with nothing shipped to the time rule", () => {
		expect(claimableUnits(items, [shipment()], NONE, [{ item_id: "itm_b", quantity: 1 }])).toMatchObject({
			ok: true,
		});
	});
});
