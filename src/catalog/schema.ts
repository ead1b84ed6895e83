import { z } from "@hono/zod-openapi";

/** The catalog of spec 2.5. */
export const CatalogSchema = z
	.object({
		frames: z.array(
			z.object({
				slug: z.string().openapi({ example: "walnut-flat-075" }),
				name: z.string().openapi({ example: "Walnut Flat 3/4 in" }),
				width_in: z.number().openapi({ description: "Moulding face width, inches.", example: 0.75 }),
			}),
		),
		mats: z.array(z.object({ slug: z.string(), name: z.string() })),
		sizes: z.object({
			min_in: z.number(),
			max_in: z.number(),
			custom: z.boolean().openapi({ description: "True: any whole-inch size in range is accepted." }),
		}),
	})
	.openapi("Catalog");

export type Catalog = z.infer<typeof CatalogSchema>;
