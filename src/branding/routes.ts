import { jsonResponse, protectedRoute } from "../access/protected-route.ts";
import type { AuthedEnv } from "../accounts/authed-env.ts";
import { databaseOf } from "../databases.ts";
import { createApp } from "../http/create-app.ts";
import { ApiError, errorResponses, refusalError } from "../http/errors.ts";
import { expiredSinceChecked } from "../print-files/retention.ts";
import { logoProblem } from "./logo.ts";
import { BrandProfileBody, BrandProfileSchema } from "./schema.ts";
import {
	type BrandProfileRow,
	deleteBrandProfile,
	findBrandProfile,
	putBrandProfile,
	toBrandProfile,
} from "./store.ts";

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

/**
 * putBrandProfile, with the logo's expiry between its check and the write (the database refuses the
 * write) as the same 422 as an expired logo found by the check.
 */
async function writeBrandProfile(...args: Parameters<typeof putBrandProfile>): Promise<BrandProfileRow> {
	try {
		return await putBrandProfile(...args);
	} catch (error) {
		const [db, row] = args;
		const logo = row.logo_print_file_id;
		const uses = logo === null ? [] : [{ fileId: logo, field: "logo_print_file_id" }];
		const expired = await expiredSinceChecked(db, row.account_id, uses);
		if (expired === null) throw error;
		throw refusalError(expired);
	}
}

/** `GET`, `PUT` and `DELETE /v1/branding`: one profile per account and mode, the key's. */
export const brandingRoutes = createApp<AuthedEnv>()
	.openapi(getBranding, async (c) => {
		const { principal } = c.var;
		const row = await findBrandProfile(databaseOf(c.env, principal.accountId), principal);
		if (row === null) throw new ApiError("brand_profile_not_found", noProfile(principal.mode));
		return c.json(toBrandProfile(row), 200);
	})
	.openapi(putBranding, async (c) => {
		const input = c.req.valid("json");
		const accountId = c.var.principal.accountId;
		const logoId = input.logo_print_file_id ?? null;
		if (logoId !== null) {
			const problem = await logoProblem(c.env, accountId, logoId);
			if (problem !== null)
				throw new ApiError(problem.code, `logo_print_file_id ${problem.message}.`, "logo_print_file_id");
		}
		const row = await writeBrandProfile(
			databaseOf(c.env, c.var.principal.accountId),
			{
				account_id: accountId,
				mode: c.var.principal.mode,
				brand_name: input.brand_name,
				return_address: input.return_address == null ? null : JSON.stringify(input.return_address),
				support_email: input.support_email ?? null,
				support_url: input.support_url ?? null,
				packing_slip_message: input.packing_slip_message ?? null,
				logo_print_file_id: logoId,
			},
			new Date(),
		);
		return c.json(toBrandProfile(row), 200);
	})
	.openapi(deleteBranding, async (c) => {
		const { principal } = c.var;
		if (!(await deleteBrandProfile(databaseOf(c.env, principal.accountId), principal)))
			throw new ApiError("brand_profile_not_found", noProfile(principal.mode));
		return c.body(null, 204);
	});
