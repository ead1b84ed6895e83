/**
 * Which US states, territories and military "states" each three-digit ZIP prefix belongs to. Source:
 * the USPS's 3-Digit ZIP Code Prefix Matrix (Domestic Mail Manual, labeling list L002), read as
 * ranges per state; a prefix the USPS has not assigned falls inside its neighbours' range, which
 * costs nothing, since a prefix nobody uses is never written. The few prefixes that cross a state
 * line (Fishers Island NY in 063, Texarkana and El Paso TX, the IRS's 005 in NY) are listed.
 */

/** Each code's prefixes as inclusive ranges of the first three digits. */
const PREFIX_RANGES: ReadonlyArray<readonly [string, ReadonlyArray<readonly [number, number]>]> = [
	["AA", [[340, 340]]],
	["AE", [[90, 98]]],
	["AK", [[995, 999]]],
	["AL", [[350, 369]]],
	["AP", [[962, 966]]],
	["AR", [[716, 729]]],
	["AS", [[967, 967]]],
	["AZ", [[850, 865]]],
	["CA", [[900, 961]]],
	["CO", [[800, 816]]],
	["CT", [[60, 69]]],
	[
		"DC",
		[
			[200, 200],
			[202, 205],
			[569, 569],
		],
	],
	["DE", [[197, 199]]],
	["FL", [[320, 349]]],
	[
		"GA",
		[
			[300, 319],
			[398, 399],
		],
	],
	["GU", [[969, 969]]],
	["HI", [[967, 968]]],
	["IA", [[500, 528]]],
	["ID", [[832, 838]]],
	["IL", [[600, 629]]],
	["IN", [[460, 479]]],
	["KS", [[660, 679]]],
	["KY", [[400, 427]]],
	["LA", [[700, 714]]],
	[
		"MA",
		[
			[10, 27],
			[55, 55],
		],
	],
	["MD", [[206, 219]]],
	["ME", [[39, 49]]],
	["MI", [[480, 499]]],
	["MN", [[550, 567]]],
	["MO", [[630, 658]]],
	["MP", [[969, 969]]],
	["MS", [[386, 397]]],
	["MT", [[590, 599]]],
	["NC", [[270, 289]]],
	["ND", [[580, 588]]],
	["NE", [[680, 693]]],
	["NH", [[30, 38]]],
	["NJ", [[70, 89]]],
	["NM", [[870, 884]]],
	["NV", [[889, 898]]],
	[
		"NY",
		[
			[5, 5],
			[63, 63],
			[100, 149],
		],
	],
	["OH", [[430, 459]]],
	["OK", [[730, 749]]],
	["OR", [[970, 979]]],
	["PA", [[150, 196]]],
	[
		"PR",
		[
			[6, 7],
			[9, 9],
		],
	],
	["RI", [[28, 29]]],
	["SC", [[290, 299]]],
	["SD", [[570, 577]]],
	["TN", [[370, 385]]],
	[
		"TX",
		[
			[733, 733],
			[750, 799],
			[885, 885],
		],
	],
	["UT", [[840, 847]]],
	[
		"VA",
		[
			[201, 201],
			[220, 246],
		],
	],
	["VI", [[8, 8]]],
	[
		"VT",
		[
			[50, 54],
			[56, 59],
		],
	],
	["WA", [[980, 994]]],
	["WI", [[530, 549]]],
	["WV", [[247, 268]]],
	["WY", [[820, 831]]],
];

const RANGES_BY_CODE: ReadonlyMap<string, ReadonlyArray<readonly [number, number]>> = new Map(PREFIX_RANGES);

/**
 * Whether a US ZIP code (`12345` or `12345-6789`) lies in `state`'s prefixes; null when that cannot be
 * said (a ZIP of another shape, or a code without a prefix list, such as UM).
 */
export function zipMatchesState(zip: string, state: string): boolean | null {
	const ranges = RANGES_BY_CODE.get(state.toUpperCase());
	const digits = /^(\d{3})\d{2}(?:-\d{4})?$/.exec(zip.trim());
	if (ranges === undefined || digits?.[1] === undefined) return null;
	const prefix = Number(digits[1]);
	return ranges.some(([low, high]) => prefix >= low && prefix <= high);
}
