/**
 * Packages, weights and shipping options of an order. Pure and exact:
 * sizes in sixteenths of an inch, weights as fractions of a pound over one common denominator, so
 * every threshold (130 and 165 in of length plus girth, dimensional weight at 139, whole billable
 * pounds) is decided without floating-point error.
 */
import { type Fraction, SIXTEENTHS } from "../framing/dimensions.ts";
import { ceilDiv, roundHalfUp, safeInteger, safeProduct, safeSum } from "./money.ts";

/** The shipping methods, cheapest first. */
export const SHIPPING_METHODS = ["budget", "standard", "express", "freight"] as const;
/** One of SHIPPING_METHODS. */
export type ShippingMethod = (typeof SHIPPING_METHODS)[number];

/** The destination zones, by the ship-to country. */
export const SHIPPING_ZONES = ["US", "north_america", "europe", "world"] as const;
/** One of SHIPPING_ZONES. */
export type ShippingZone = (typeof SHIPPING_ZONES)[number];

/** A method's price and transit time to a zone: cents per package plus cents per billable pound. */
export type ShippingRate = { packageCents: number; perPoundCents: number; transitDays: { min: number; max: number } };

/** The shipping side of the price book. */
export type ShippingTables = {
	/** Per zone, the methods offered there (a method absent for a zone is not offered to it). */
	rates: Record<ShippingZone, Partial<Record<ShippingMethod, ShippingRate>>>;
	/** Added per package above `oversizeAboveIn` of length plus girth (not for freight). */
	oversizeCents: number;
	oversizeAboveIn: number;
	/** Above this length plus girth no parcel service takes a package: the order ships by freight. */
	freightAboveIn: number;
	/** Cubic inches per pound of dimensional weight. */
	dimensionalDivisor: number;
	/** Production days before shipping: framed orders, and orders of prints alone. */
	productionDays: { framed: number; unframed: number };
};

/** Countries of the europe zone: the EU's members, GB, NO, CH and IS. */
const EUROPE: ReadonlySet<string> = new Set(
	"AT BE BG HR CY CZ DK EE FI FR DE GR HU IE IT LV LT LU MT NL PL PT RO SK SI ES SE GB NO CH IS".split(" "),
);

/** The zone a ship-to country is in. */
export function zoneOf(country: string): ShippingZone {
	if (country === "US") return "US";
	if (country === "CA" || country === "MX") return "north_america";
	return EUROPE.has(country) ? "europe" : "world";
}

/** Weights are kept as a whole number of these parts of a pound: 1/10,000 lb over the footage's and areas' denominators. */
const WEIGHT_DENOMINATOR = 3840 * 10_000;

/** Ten-thousandths of a pound, the unit the model's weight factors are written in. */
export type WeightFactors = {
	acrylicPerSquareInch: number;
	matPerSquareInch: number;
	backingPerSquareInch: number;
	printPerSquareInch: number;
	framedPackaging: number;
	flatPackaging: number;
};

/** The model's weight factors, in ten-thousandths of a pound (0.0052 lb per sq in of acrylic is 52). */
export const WEIGHT_FACTORS: WeightFactors = {
	acrylicPerSquareInch: 52,
	matPerSquareInch: 12,
	backingPerSquareInch: 9,
	printPerSquareInch: 2,
	framedPackaging: 15_000,
	flatPackaging: 10_000,
};

/** A framed piece as shipping sees it: sizes in sixteenths, the moulding's footage and weight. */
export type FramedParcelItem = {
	kind: "framed";
	outside: { width: number; height: number };
	inner: { width: number; height: number };
	print: { width: number; height: number };
	footage: Fraction;
	/** The frame's weight per foot, in ten-thousandths of a pound. */
	frameWeightPerFoot: number;
	glazed: boolean;
	matLayers: number;
	quantity: number;
};

/** An unframed print: its size in sixteenths. */
export type FlatParcelItem = { kind: "flat"; print: { width: number; height: number }; quantity: number };

/** One package as the quote shows it. */
export type Package = {
	length_in: number;
	width_in: number;
	depth_in: number;
	weight_lb: number;
	billable_weight_lb: number;
	oversize: boolean;
	/** Length plus girth, in inches. */
	length_plus_girth_in: number;
};

/** One way to ship the order: its packages, its cost and how long delivery takes. */
export type ShippingOption = {
	method: ShippingMethod;
	packages: Package[];
	cost: number;
	delivery_days: { min: number; max: number };
};

const SQUARE_SIXTEENTHS = SIXTEENTHS * SIXTEENTHS;

/** A weight term of `area` square sixteenths at `factor` ten-thousandths of a pound per square inch, in weight units. */
function areaWeight(area: number, factor: number): number {
	return area * factor * (WEIGHT_DENOMINATOR / (SQUARE_SIXTEENTHS * 10_000));
}

type Box = { length: number; width: number; depth: number; weight: number };

/** The packages of an order: one box per framed unit, and one flat box for all its unframed prints. */
export function packagesOf(items: readonly (FramedParcelItem | FlatParcelItem)[]): Box[] {
	const boxes: Box[] = [];
	const margin = 4 * SIXTEENTHS;
	for (const item of items) {
		if (item.kind !== "framed") continue;
		const long = Math.max(item.outside.width, item.outside.height);
		const short = Math.min(item.outside.width, item.outside.height);
		const innerArea = item.inner.width * item.inner.height;
		const weight = safeInteger(
			item.footage.numerator * item.frameWeightPerFoot * (WEIGHT_DENOMINATOR / (item.footage.denominator * 10_000)) +
				(item.glazed ? areaWeight(innerArea, WEIGHT_FACTORS.acrylicPerSquareInch) : 0) +
				item.matLayers * areaWeight(innerArea, WEIGHT_FACTORS.matPerSquareInch) +
				areaWeight(innerArea, WEIGHT_FACTORS.backingPerSquareInch) +
				areaWeight(item.print.width * item.print.height, WEIGHT_FACTORS.printPerSquareInch) +
				WEIGHT_FACTORS.framedPackaging * (WEIGHT_DENOMINATOR / 10_000),
			"package weight",
		);
		for (let unit = 0; unit < item.quantity; unit++) {
			boxes.push({ length: long + margin, width: short + margin, depth: 4 * SIXTEENTHS, weight });
		}
	}
	const flats = items.filter((item): item is FlatParcelItem => item.kind === "flat");
	if (flats.length > 0) {
		const long = Math.max(...flats.map((item) => Math.max(item.print.width, item.print.height)));
		const short = Math.max(...flats.map((item) => Math.min(item.print.width, item.print.height)));
		const prints = flats.reduce(
			(sum, item) =>
				sum + item.quantity * areaWeight(item.print.width * item.print.height, WEIGHT_FACTORS.printPerSquareInch),
			0,
		);
		boxes.push({
			length: long + margin,
			width: short + margin,
			depth: 2 * SIXTEENTHS,
			weight: safeInteger(prints + WEIGHT_FACTORS.flatPackaging * (WEIGHT_DENOMINATOR / 10_000), "package weight"),
		});
	}
	return boxes;
}

/**
 * The boxes a shipment of these units travels in, as the shipment shows them: the model's packages
 * (`packagesOf`), each with its sides in inches and its billable pounds at `divisor`.
 */
export function shipmentPackages(
	items: readonly (FramedParcelItem | FlatParcelItem)[],
	divisor: number,
): Array<{ length_in: number; width_in: number; depth_in: number; billable_weight_lb: number }> {
	return packagesOf(items).map((box) => ({
		length_in: box.length / SIXTEENTHS,
		width_in: box.width / SIXTEENTHS,
		depth_in: box.depth / SIXTEENTHS,
		billable_weight_lb: billablePounds(box, divisor),
	}));
}

/** Length plus girth of a box, in sixteenths: its longest side plus twice the other two. */
function lengthPlusGirth(box: Box): number {
	return box.length + 2 * (box.width + box.depth);
}

/** Whole billable pounds: the larger of the actual weight and L × W × D / divisor, rounded up. */
export function billablePounds(box: Box, divisor: number): number {
	const actual = ceilDiv(box.weight, WEIGHT_DENOMINATOR);
	const dimensional = ceilDiv(box.length * box.width * box.depth, SIXTEENTHS ** 3 * divisor);
	return Math.max(actual, dimensional);
}

/** The package as the quote shows it. */
function shown(box: Box, tables: ShippingTables): Package {
	const girth = lengthPlusGirth(box);
	return {
		length_in: box.length / SIXTEENTHS,
		width_in: box.width / SIXTEENTHS,
		depth_in: box.depth / SIXTEENTHS,
		weight_lb: roundHalfUp(box.weight * 100, WEIGHT_DENOMINATOR) / 100,
		billable_weight_lb: billablePounds(box, tables.dimensionalDivisor),
		oversize: girth > tables.oversizeAboveIn * SIXTEENTHS,
		length_plus_girth_in: girth / SIXTEENTHS,
	};
}

/**
 * The ways the order can ship to `country`, cheapest method first. A package over the freight limit
 * makes freight the only option; below it freight is offered beside the parcel methods.
 */
export function shippingOptions(
	items: readonly (FramedParcelItem | FlatParcelItem)[],
	country: string,
	tables: ShippingTables,
): ShippingOption[] {
	const boxes = packagesOf(items);
	const packages = boxes.map((box) => shown(box, tables));
	const needsFreight = boxes.some((box) => lengthPlusGirth(box) > tables.freightAboveIn * SIXTEENTHS);
	const offered = tables.rates[zoneOf(country)];
	const production = items.some((item) => item.kind === "framed")
		? tables.productionDays.framed
		: tables.productionDays.unframed;
	return SHIPPING_METHODS.flatMap((method) => {
		const rate = offered[method];
		if (rate === undefined || (needsFreight && method !== "freight")) return [];
		const oversize = method === "freight" ? 0 : packages.filter((parcel) => parcel.oversize).length;
		const cost = safeSum(
			[
				...packages.map((parcel) =>
					safeSum(
						[rate.packageCents, safeProduct(rate.perPoundCents, parcel.billable_weight_lb, "shipping")],
						"shipping",
					),
				),
				safeProduct(oversize, tables.oversizeCents, "shipping"),
			],
			"shipping",
		);
		return [
			{
				method,
				packages,
				cost,
				delivery_days: {
					min: safeSum([production, rate.transitDays.min], "delivery days"),
					max: safeSum([production, rate.transitDays.max], "delivery days"),
				},
			},
		];
	});
}
