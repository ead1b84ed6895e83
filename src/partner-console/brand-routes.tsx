/**
 * The brand section, /partner/brand: the profile of the page's mode (every role reads it), its change
 * with the logo upload and its deletion (edit_brand), and the sample packing slip. Saving calls
 * saveBrandProfile, as `PUT /v1/branding` does; a logo is stored as a print file, as the API's logo is.
 */
import type { Context } from "hono";
import { Hono } from "hono";
import { saveBrandProfile } from "../branding/brand-profile.ts";
import { LOGO_MAX_BYTES } from "../branding/schema.ts";
import { deleteBrandProfile, findBrandProfile } from "../branding/store.ts";
import { databaseOf } from "../databases.ts";
import { refusalStatus } from "../http/errors.ts";
import { page, readForm } from "../http/html-pages.ts";
import { storeFormUpload } from "../print-files/form-upload.ts";
import { findAccountPrintFile } from "../print-files/store.ts";
import { renderSampleSlip } from "../production/sample-slip.ts";
import { brandBodyOf, brandFormValues, inFormWords } from "./brand-form.ts";
import { BRAND_DONE, BrandPage, type BrandPageProps } from "./brand-page.tsx";
import { partnerErrorPage } from "./pages.tsx";
import type { SignedInPartnerEnv } from "./partner-env.ts";
import { roleCan } from "./permissions.ts";
import { ownerOf, withMode } from "./scope.ts";
import { requireAbility, requirePartner, requirePartnerCsrf } from "./session-gate.ts";

type BrandContext = Context<SignedInPartnerEnv>;
type PageState = Pick<BrandPageProps, "values" | "done" | "refusal" | "refusedForm">;

/** The brand page as it stands now, with what the last action left to say. */
async function brandPage(c: BrandContext, state: PageState, status: 200 | 400 | 404 | 409 | 413 | 422 = 200) {
	const owner = ownerOf(c);
	const db = databaseOf(c.env, owner.accountId);
	const profile = await findBrandProfile(db, owner);
	const logoId = profile?.logo_print_file_id ?? null;
	const logo = logoId === null ? null : await findAccountPrintFile(db, owner.accountId, logoId);
	const { user, csrfToken } = c.var.signedIn;
	const props: BrandPageProps = {
		viewer: { csrfToken, role: user.role },
		mode: owner.mode,
		profile,
		logo,
		canEdit: roleCan(user.role, "edit_brand"),
		...state,
	};
	return page(c, <BrandPage {...props} />, status);
}

const NOTHING: PageState = { values: null, done: null, refusal: null };

export const partnerBrandRoutes = new Hono<SignedInPartnerEnv>();

partnerBrandRoutes.get("/", requirePartner, requireAbility("read"), (c) => {
	const word = c.req.query("done");
	const done = word === "saved" || word === "deleted" ? BRAND_DONE[word] : null;
	return brandPage(c, { ...NOTHING, done });
});

partnerBrandRoutes.post("/", requirePartner, requireAbility("edit_brand"), requirePartnerCsrf, async (c) => {
	const owner = ownerOf(c);
	const form = await readForm(c);
	const values = brandFormValues(form);
	const refused = (message: string, status: 400 | 409 | 413 | 422) =>
		brandPage(c, { values, done: null, refusal: message, refusedForm: "save" }, status);
	const current = await findBrandProfile(databaseOf(c.env, owner.accountId), owner);
	const kept = form.remove_logo === "yes" ? null : (current?.logo_print_file_id ?? null);
	// The text first, so a refused form stores no logo.
	const checked = brandBodyOf(values, kept);
	if (!checked.ok) return refused(checked.message, checked.status);
	let logoId = kept;
	const upload = form.logo;
	if (upload instanceof File && upload.size > 0) {
		if (upload.size > LOGO_MAX_BYTES) {
			return refused(
				`The logo must be at most ${LOGO_MAX_BYTES} bytes (4 MiB); this file is ${upload.size} bytes.`,
				413,
			);
		}
		const stored = await storeFormUpload(c.env, owner, upload);
		if (!stored.ok) return refused(stored.message, 422);
		logoId = stored.file.id;
	}
	const saved = await saveBrandProfile(c.env, owner, { ...checked.input, logo_print_file_id: logoId });
	if (!saved.ok) {
		const status = refusalStatus(saved);
		return refused(inFormWords(saved.message, saved.field), status === 409 ? 409 : 422);
	}
	return c.redirect(withMode("/partner/brand?done=saved", owner.mode), 303);
});

partnerBrandRoutes.post("/delete", requirePartner, requireAbility("edit_brand"), requirePartnerCsrf, async (c) => {
	const owner = ownerOf(c);
	const form = await readForm(c);
	if (form.confirm !== "yes") {
		const refusal = "Tick the box to confirm the deletion: nothing was deleted.";
		return brandPage(c, { ...NOTHING, refusal, refusedForm: "delete" }, 422);
	}
	if (!(await deleteBrandProfile(databaseOf(c.env, owner.accountId), owner))) {
		const { user, csrfToken } = c.var.signedIn;
		const message = `This account has no ${owner.mode} brand profile to delete.`;
		return partnerErrorPage(c, 404, message, { csrfToken, role: user.role });
	}
	return c.redirect(withMode("/partner/brand?done=deleted", owner.mode), 303);
});

partnerBrandRoutes.get("/slip-preview", requirePartner, requireAbility("read"), async (c) => {
	const owner = ownerOf(c);
	const profile = await findBrandProfile(databaseOf(c.env, owner.accountId), owner);
	const whose =
		profile === null ? `no ${owner.mode} brand profile yet (a neutral slip)` : `the ${owner.mode} brand profile`;
	const notice = `A sample order, with ${whose}: your buyers' slips show their own order. This line is not printed.`;
	return c.html(await renderSampleSlip(c.env, owner.accountId, profile, notice), 200);
});
