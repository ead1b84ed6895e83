import { z } from "@hono/zod-openapi";
import { describe, expect, it } from "vitest";
import {
	completeFraming,
	FramingFields,
	type FramingInput,
	framingProblem,
	refineFraming,
} from "../../src/framing/spec.ts";

const ItemFraming = z.strictObject(FramingFields).superRefine(refineFraming);

describe("framing specification", () => {
	it("completes a framed item with the model's defaults", () => {
		expect(completeFraming({ frame: "walnut-flat-125", mat: "bright-white" })).toEqual({
			frame: "walnut-flat-125",
			mat: "bright-white",
			mat_border_in: 2,
			mat_bottom_border_in: 2,
			inner_mat: null,
			inner_mat_reveal_in: null,
			glazing: "acrylic",
			paper: "archival-matte",
			fit: "fill",
		});
	});

	it("an unframed print has no mat and no glazing by default", () => {
		expect(completeFraming({})).toMatchObject({ frame: null, mat: null, mat_border_in: null, glazing: "none" });
	});

	it("a weighted bottom defaults to the side border; a double mat's reveal to 1/4 in", () => {
		expect(
			completeFraming({
				frame: "walnut-flat-125",
				mat: "bright-white",
				mat_border_in: 2.5,
				inner_mat: "black-core-black",
			}),
		).toMatchObject({ mat_border_in: 2.5, mat_bottom_border_in: 2.5, inner_mat_reveal_in: 0.25 });
	});

	it("an order that spells out the defaults has the same complete specification", () => {
		const short: FramingInput = { frame: "walnut-flat-125", mat: "bright-white" };
		const spelled: FramingInput = {
			...short,
			mat_border_in: 2,
			mat_bottom_border_in: 2,
			glazing: "acrylic",
			paper: "archival-matte",
			fit: "fill",
		};
		expect(completeFraming(spelled)).toEqual(completeFraming(short));
	});

	it.each([
		[{ mat: "bright-white" }, "mat"],
		[{ glazing: "museum-acrylic" }, "glazing"],
		[{ frame: "walnut-flat-125", mat_border_in: 2 }, "mat_border_in"],
		[{ frame: "walnut-flat-125", inner_mat: "cream" }, "inner_mat"],
		[{ frame: "walnut-flat-125", mat: "bright-white", inner_mat_reveal_in: 0.25 }, "inner_mat_reveal_in"],
		[
			{ frame: "walnut-flat-125", mat: "bright-white", mat_border_in: 3, mat_bottom_border_in: 2.5 },
			"mat_bottom_border_in",
		],
	] satisfies [FramingInput, string][])("%j cannot be built: the fault is on %s", (input, field) => {
		expect(framingProblem(input)?.field).toBe(field);
		const parsed = ItemFraming.safeParse(input);
		expect(parsed.success).toBe(false);
		expect(parsed.error?.issues[0]?.path).toEqual([field]);
	});

	it("glazing none on an unframed print is allowed", () => {
		expect(framingProblem({ glazing: "none" })).toBeNull();
	});

	it.each([
		["mat_border_in", 0.875],
		["mat_border_in", 6.125],
		["mat_border_in", 2.2],
		["mat_bottom_border_in", 8.125],
		["inner_mat_reveal_in", 0.0625],
		["inner_mat_reveal_in", 0.625],
	])("%s %s is outside its range or step", (field, value) => {
		const input = { frame: "walnut-flat-125", mat: "bright-white", inner_mat: "cream", [field]: value };
		const parsed = ItemFraming.safeParse(input);
		expect(parsed.success).toBe(false);
		expect(parsed.error?.issues[0]?.path).toEqual([field]);
	});

	it("accepts the museum piece of the worked example in docs/pricing.md", () => {
		const input = {
			frame: "walnut-flat-125",
			mat: "museum-rag-white-8ply",
			mat_border_in: 2.5,
			mat_bottom_border_in: 3,
			inner_mat: "museum-rag-black-4ply",
			glazing: "museum-acrylic",
			paper: "cotton-rag",
		};
		expect(ItemFraming.safeParse(input).success).toBe(true);
	});
});
