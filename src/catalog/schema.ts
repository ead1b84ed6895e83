import { z } from "@hono/zod-openapi";

const ColorSchema = z
	.object({
		name: z.string().openapi({ example: "Walnut" }),
		hex: z.string().openapi({ description: "sRGB, #RRGGBB.", example: "#5C4033" }),
	})
	.openapi("CatalogColor");

const DescribedItemSchema = z.object({
	slug: z.string(),
	name: z.string(),
	description: z.string().openapi({ description: "One line for a buyer." }),
});

/** The catalog: frames (with what each moulding carries), mats, glazings, papers and the size range. */
export const CatalogSchema = z
	.object({
		frames: z.array(
			z.object({
				slug: z.string().openapi({ example: "walnut-flat-075" }),
				name: z.string().openapi({ example: "Walnut Flat 3/4 in" }),
				width_in: z.number().openapi({ description: "Moulding face width, inches.", example: 0.75 }),
				color: ColorSchema,
				material: z.string().openapi({ example: "walnut" }),
				profile: z
					.string()
					.openapi({ description: "flat, rounded, scoop, floater, shadow-box or ornate.", example: "flat" }),
				max_united_inches: z.number().openapi({
					description:
						"The largest piece the moulding carries: the frame's inner width plus height, in inches (mat included).",
					example: 80,
				}),
			}),
		),
		mats: z.array(
			z.object({
				slug: z.string().openapi({ example: "museum-rag-white-4ply" }),
				name: z.string().openapi({ example: "Museum rag, white, 4-ply" }),
				color: ColorSchema,
				core: z.enum(["white", "cream", "black"]).openapi({ description: "The colour of the bevel's core." }),
			}),
		),
		glazings: z.array(
			DescribedItemSchema.openapi({
				example: {
					slug: "museum-acrylic",
					name: "Museum acrylic",
					description: "Anti-reflective acrylic that blocks 99% of UV light.",
				},
			}),
		),
		papers: z.array(
			DescribedItemSchema.openapi({
				example: { slug: "cotton-rag", name: "Cotton rag", description: "A 310 gsm 100% cotton museum paper." },
			}),
		),
		sizes: z
			.object({
				min_in: z.number(),
				max_in: z.number(),
				custom: z.boolean().openapi({ description: "True: any whole-inch size in range is accepted." }),
			})
			.openapi({ example: { min_in: 4, max_in: 40, custom: true } }),
	})
	.openapi("Catalog");

export type Catalog = z.infer<typeof CatalogSchema>;
