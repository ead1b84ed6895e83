/** The worked example's piece (docs/pricing.md) (16 × 20 in, 2.5 in mat with a 3 in bottom, double mat, 1 1/4 in frame) and its dimensions. */

/** Its dimensions, as the dimensions module and a quote give them (united inches apart). */
export const MUSEUM_PIECE_DIMENSIONS = {
	print: { width_in: 16, height_in: 20 },
	mat_opening: { width_in: 15.75, height_in: 19.75 },
	top_mat_opening: { width_in: 16.25, height_in: 20.25 },
	mat_outer: { width_in: 21, height_in: 25.5 },
	glazing: { width_in: 21, height_in: 25.5 },
	outside: { width_in: 23.5, height_in: 28 },
};

/** Its frame's inner width plus height. */
export const MUSEUM_PIECE_UNITED_INCHES = 46.5;

/** The piece as an item of a quote or an order asks for it. */
export const MUSEUM_PIECE = {
	width_in: 16,
	height_in: 20,
	paper: "cotton-rag",
	mat: "museum-rag-white-8ply",
	mat_border_in: 2.5,
	mat_bottom_border_in: 3,
	inner_mat: "museum-rag-black-4ply",
	frame: "walnut-flat-125",
	glazing: "museum-acrylic",
};

/** Every cut size of the museum piece, as the framer reads it. */
export const MUSEUM_PIECE_CUTS = [
	"16 × 20 in", // the print
	"21 × 25 1/2 in", // both mats' board, the glazing, the backing
	"16 1/4 × 20 1/4 in", // the top mat's opening
	"15 3/4 × 19 3/4 in", // the inner mat's opening
	"2 3/8 in top and sides, 2 7/8 in bottom", // the top mat's borders
	"2 5/8 in top and sides, 3 1/8 in bottom", // the inner mat's
	"1/4 in of the inner mat shows", // the reveal
	"long point 23 1/2 in", // top and bottom rails
	"long point 28 in", // left and right rails
	"23 1/2 × 28 in", // outside
];
