import { jsonResponse, protectedRoute } from "../access/protected-route.ts";
import type { AuthedEnv } from "../accounts/authed-env.ts";
import { databaseOf } from "../databases.ts";
import { createApp } from "../http/create-app.ts";
import { ApiError, errorResponses, okOrThrow } from "../http/errors.ts";
import { saveBrandProfile } from "./brand-profile.ts";
import { BrandProfileBody, BrandProfileSchema } from "./schema.ts";
import { deleteBrandProfile, findBrandProfile, toBrandProfile } from "./store.ts";

/** The 404's message: the profile is the key's mode's, so the other mode's may exist. */
function noProfile(mode: string): string {
	return `This account has no ${mode} brand profile yet: PUT /v1/branding with a ${mode} key creates one (live and test keys each have their own).`;
}

const getBranding = protectedRoute("orders:read", {
	method: "get",
	path: "/branding",
	tags: ["Branding"],
	summary: "The brand profile of the key's mode: live orders' slips print the live one, test orders' the test one",
	responses: { 200: jsonResponse(BrandProfileSchema, "The brand profile."), ...errorResponses(404) },
});

const putBranding = protectedRoute("orders:write", {
	method: "put",
	path: "/branding",
	tags: ["Branding"],
	summary:
		"Create or replace the key's mode's brand profile, printed on that mode's packing slips and shipping labels (a test key never changes the live one)",
	request: { body: { required: true, content: { "application/json": { schema: BrandProfileBody } } } },
	responses: {
		200: jsonResponse(BrandProfileSchema, "The profile as stored; slips printed from now on carry it."),
		...errorResponses(400, 422),
	},
});

const deleteBranding = protectedRoute("orders:write", {
	method: "delete",
	path: "/branding",
	tags: ["Branding"],
	summary: "Remove the key's mode's brand profile: that mode's slips become neutral (the other mode's profile stays)",
	responses: { 204: { description: "Removed." }, ...errorResponses(404) },
});

/** `GET`, `PUT` and `DELETE /v1/branding`: one profile per account and mode, the key's. */
export const brandingRoutes = createApp<AuthedEnv>()
	.openapi(getBranding, async (c) => {
		const { principal } = c.var;
		const row = await findBrandProfile(databaseOf(c.env, principal.accountId), principal);
		if (row === null) throw new ApiError("brand_profile_not_found", noProfile(principal.mode));
		return c.json(toBrandProfile(row), 200);
	})
	.openapi(putBranding, async (c) => {
		const saved = okOrThrow(await saveBrandProfile(c.env, c.var.principal, c.req.valid("json")));
		return c.json(toBrandProfile(saved.profile), 200);
	})
	.openapi(deleteBranding, async (c) => {
		const { principal } = c.var;
		if (!(await deleteBrandProfile(databaseOf(c.env, principal.accountId), principal)))
			throw new ApiError("brand_profile_not_found", noProfile(principal.mode));
		return c.body(null, 204);
	});
