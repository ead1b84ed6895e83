/**
 * Placing orders from the partner console, under /partner/place: one order by form (upload, preview
 * and quote, order) and many by CSV (template, dry run, create). Every step calls the API's own
 * functions: storeFormUpload, createQuote, piecePreview, createOrder; the ids a step carries in hidden
 * fields are looked up again by the owner on every post. Roles that may act on orders only.
 */
import type { Context } from "hono";
import { Hono } from "hono";
import { bodyLimit } from "hono/body-limit";
import { orderSettingsOf } from "../accounts/store.ts";
import { isolateCatalog } from "../catalog/cache.ts";
import { databaseOf, directoryDatabase } from "../databases.ts";
import { PREVIEW_WIDTH } from "../framed-previews/render.ts";
import { piecePreview, previewHeaders } from "../framed-previews/serve-preview.ts";
import {
	type CarryMarks,
	confirmedText,
	maxCarriedCharacters,
	sessionMarks,
	uploadedText,
} from "../http/carried-file.ts";
import { ApiError, refusalStatus } from "../http/errors.ts";
import { page, readForm } from "../http/html-pages.ts";
import { consoleSessionSecret } from "../http/session-forms.ts";
import { problemOfIssue } from "../http/validation.ts";
import { createOrder, type OrderOwner, startOrder } from "../orders/create-order.ts";
import { MAX_SHEET_BYTES, readSheet, sheetTemplate } from "../orders/order-sheet.ts";
import { checkSheet, placeSheet } from "../orders/order-sheet-check.ts";
import { CreateOrderBody } from "../orders/schema.ts";
import { findOwnedOrder } from "../orders/store.ts";
import { MAX_FORM_UPLOAD_BYTES, storeFormUpload } from "../print-files/form-upload.ts";
import { findOwnedPrintFile } from "../print-files/store.ts";
import { createQuote } from "../quotes/create-quote.ts";
import { CreateQuoteBody } from "../quotes/schema.ts";
import { findOwnedQuote } from "../quotes/store.ts";
import { partnerErrorPage } from "./pages.tsx";
import type { SignedInPartnerEnv } from "./partner-env.ts";
import {
	ORDER_FORM_FIELDS,
	OrderFormPage,
	type OrderFormValues,
	PLACED_WORDS,
	QuotedOrderPage,
} from "./place-order-form.tsx";
import { SheetPage } from "./place-order-sheet.tsx";
import { modeOf, ownerOf, withMode } from "./scope.ts";
import { requireAbility, requirePartner, requirePartnerCsrf, signedInViewerOf } from "./session-gate.ts";

type PlaceContext = Context<SignedInPartnerEnv>;

/** The order form's values from a posted form: text fields only, each capped. */
function formValues(form: Readonly<Record<string, unknown>>): OrderFormValues {
	const entries = ORDER_FORM_FIELDS.map((name) => {
		const value = form[name];
		return [name, typeof value === "string" ? value.trim().slice(0, 300) : ""] as const;
	});
	return Object.fromEntries(entries) as Record<(typeof ORDER_FORM_FIELDS)[number], string>;
}

const EMPTY_FORM = formValues({ country: "US", shipping_method: "standard" });

/** A number field as the API's body takes it: a number when it reads as one, else the text for the schema to refuse. */
function numberOf(text: string): number | string {
	return /^\d+(\.\d+)?$/.test(text) ? Number(text) : text;
}

function present(text: string): string | undefined {
	return text === "" ? undefined : text;
}

/** The API's order body from the form's values (the file by id). */
function orderBodyOf(values: OrderFormValues, printFileId: string, quoteId?: string) {
	const shipTo = {
		name: values.name,
		address1: values.address1,
		address2: present(values.address2),
		city: values.city,
		state: present(values.state),
		zip: present(values.zip),
		country: values.country,
		phone: present(values.phone),
		email: present(values.email),
	};
	const item = {
		print_file_id: printFileId,
		width_in: numberOf(values.width_in),
		height_in: numberOf(values.height_in),
		frame: present(values.frame),
		mat: present(values.mat),
		glazing: present(values.glazing),
	};
	return {
		external_id: values.external_id,
		ship_to: shipTo,
		items: [item],
		shipping_method: present(values.shipping_method),
		...(quoteId === undefined ? {} : { quote_id: quoteId }),
	};
}

/** Whose orders are placed: the signed-in user's account in the page's mode, with its settings for new orders. */
async function orderOwnerOf(c: PlaceContext): Promise<OrderOwner> {
	const owner = ownerOf(c);
	const settings = await orderSettingsOf(directoryDatabase(c.env), owner.accountId);
	if (settings === null) throw new ApiError("not_found", "This account no longer exists.");
	return { ...owner, ...settings };
}

function frameOf(c: PlaceContext) {
	return { viewer: signedInViewerOf(c), mode: modeOf(c) };
}

async function formPage(
	c: PlaceContext,
	values: OrderFormValues,
	error: string | null,
	status: 200 | 400 | 404 | 409 | 422 = 200,
) {
	const { catalog } = await isolateCatalog.get(directoryDatabase(c.env));
	return page(
		c,
		<OrderFormPage {...frameOf(c)} catalog={catalog} values={values} error={error} placed={null} />,
		status,
	);
}

/** The marks of this session's order sheets. */
function sheetMarks(c: PlaceContext): CarryMarks {
	return sessionMarks(consoleSessionSecret(c.env), c.var.signedIn.sessionId, "orders");
}

/** Refuses a body over `maxSize` as a console page. */
function formSizeLimit(maxSize: number, words: string) {
	return bodyLimit({
		maxSize,
		onError: () => {
			throw new ApiError("body_too_large", words);
		},
	});
}

const SHEET_WORDS = {
	noFile: "Choose a CSV file to upload.",
	notUtf8: "The file is not UTF-8 text: save it as CSV UTF-8.",
};
const SHEET_TOO_LARGE = `The file is larger than ${MAX_SHEET_BYTES / 1024} KiB: split it into smaller files.`;

export const placeOrderRoutes = new Hono<SignedInPartnerEnv>();
placeOrderRoutes.use("*", requirePartner, requireAbility("act_on_orders"));

placeOrderRoutes.get("/", async (c) => {
	const done = c.req.query("done");
	const words = done === "ordered" || done === "already" ? PLACED_WORDS[done] : null;
	const orderId = c.req.query("order");
	const order =
		words === null || orderId === undefined
			? null
			: await findOwnedOrder(databaseOf(c.env, c.var.signedIn.user.account_id), ownerOf(c), orderId, c.env.PRINT_FILES);
	const { catalog } = await isolateCatalog.get(directoryDatabase(c.env));
	const placed = words === null ? null : { words, order };
	return page(c, <OrderFormPage {...frameOf(c)} catalog={catalog} values={EMPTY_FORM} error={null} placed={placed} />);
});

// Step one: the file stored as a print file, the piece and its delivery quoted as POST /v1/quotes quotes them.
placeOrderRoutes.post(
	"/form",
	formSizeLimit(MAX_FORM_UPLOAD_BYTES + 64 * 1024, "The file is larger than the console takes (64 MiB)."),
	requirePartnerCsrf,
	async (c) => {
		const form = await readForm(c);
		const values = formValues(form);
		// The order's fields are checked by the API's schema before the file is stored.
		const body = orderBodyOf(values, "pf_unchecked");
		const parsed = CreateOrderBody.safeParse(body);
		const issue = parsed.success ? undefined : parsed.error.issues[0];
		if (issue !== undefined) return formPage(c, values, problemOfIssue(issue, body).message, 422);
		if (!(form.file instanceof File)) return formPage(c, values, "Choose the print file to upload.", 422);
		const owner = ownerOf(c);
		const stored = await storeFormUpload(c.env, owner, form.file);
		if (!stored.ok) return formPage(c, values, stored.message, 422);
		const { external_id: _externalId, items, ...cart } = body;
		const quoteBody = CreateQuoteBody.safeParse({ ...cart, items: [{ ...items[0], print_file_id: stored.file.id }] });
		if (!quoteBody.success) return formPage(c, values, "The order could not be quoted: check its fields.", 422);
		const quoted = await createQuote(c.env, owner, quoteBody.data);
		if (!quoted.ok) return formPage(c, values, quoted.message, 422);
		return page(
			c,
			<QuotedOrderPage
				{...frameOf(c)}
				printFileId={stored.file.id}
				quote={quoted.quote}
				values={values}
				error={null}
			/>,
		);
	},
);

// Step two: the order placed as POST /v1/orders places it, charged the quote; the carried ids looked up again by the owner.
placeOrderRoutes.post("/order", requirePartnerCsrf, async (c) => {
	const form = await readForm(c);
	const values = formValues(form);
	const printFileId = typeof form.print_file_id === "string" ? form.print_file_id.slice(0, 64) : "";
	const quoteId = typeof form.quote_id === "string" ? form.quote_id.slice(0, 64) : "";
	const owner = await orderOwnerOf(c);
	const database = databaseOf(c.env, owner.accountId);
	const [file, quote] = await Promise.all([
		findOwnedPrintFile(database, owner, printFileId),
		findOwnedQuote(database, owner, quoteId),
	]);
	if (file === null) return partnerErrorPage(c, 404, `No print file ${printFileId}.`, frameOf(c).viewer);
	if (quote === null)
		return partnerErrorPage(c, 404, `No quote ${quoteId} in this account and mode.`, frameOf(c).viewer);
	const body = orderBodyOf(values, file.id, quote.id);
	const parsed = CreateOrderBody.safeParse(body);
	const issue = parsed.success ? undefined : parsed.error.issues[0];
	const again = (error: string, status: 409 | 422 | 404 | 400) =>
		page(
			c,
			<QuotedOrderPage {...frameOf(c)} printFileId={file.id} quote={quote} values={values} error={error} />,
			status,
		);
	if (!parsed.success)
		return again(issue === undefined ? "The order was refused." : problemOfIssue(issue, body).message, 422);
	const created = await createOrder(c.env, owner, parsed.data);
	if (!created.ok) {
		const status = refusalStatus(created);
		return again(created.message, status === 409 || status === 404 || status === 400 ? status : 422);
	}
	if (!created.replayed) c.executionCtx.waitUntil(startOrder(c.env, created, c.var.requestId));
	const done = created.replayed ? "already" : "ordered";
	return c.redirect(withMode(`/partner/place?done=${done}&order=${created.order.order.id}`, modeOf(c)), 303);
});

// The framed preview of the piece being ordered, as POST /v1/previews draws it: only the owner's file.
placeOrderRoutes.get("/preview.png", async (c) => {
	const query = c.req.query();
	const fileId = (query.print_file_id ?? "").slice(0, 64);
	const request = {
		width_in: Number(query.width_in),
		height_in: Number(query.height_in),
		frame: present(query.frame ?? ""),
		mat: present(query.mat ?? ""),
		glazing: present(query.glazing ?? ""),
	};
	const owner = ownerOf(c);
	const drawn = (id: string | null) =>
		piecePreview(c.env, owner, { id, field: "print_file_id" }, request, PREVIEW_WIDTH.default);
	const served = await drawn(fileId);
	if (served.ok) return c.body(served.body, 200, previewHeaders(served));
	// A file just uploaded has no thumbnail yet: the frame is drawn around a grey opening meanwhile (the
	// file was found by its owner, or the refusal would be print_file_not_found), and not kept in a cache.
	if (served.code === "thumbnail_pending") {
		const frameOnly = await drawn(null);
		if (frameOnly.ok) return c.body(frameOnly.body, 200, { ...previewHeaders(frameOnly), "Cache-Control": "no-store" });
	}
	return c.text(served.message, refusalStatus(served));
});

placeOrderRoutes.get("/csv", (c) => page(c, <SheetPage {...frameOf(c)} error={null} checked={null} placed={null} />));

placeOrderRoutes.get("/csv/template.csv", (c) =>
	c.body(sheetTemplate(), 200, {
		"Content-Type": "text/csv; charset=UTF-8",
		"Content-Disposition": 'attachment; filename="orders-template.csv"',
	}),
);

function sheetRefused(c: PlaceContext, error: string) {
	return page(c, <SheetPage {...frameOf(c)} error={error} checked={null} placed={null} />, 422);
}

// The dry run: each row's verdict and each order's price; nothing is created.
placeOrderRoutes.post(
	"/csv",
	formSizeLimit(MAX_SHEET_BYTES + 16 * 1024, SHEET_TOO_LARGE),
	requirePartnerCsrf,
	async (c) => {
		const form = await readForm(c);
		if (form.file instanceof File && form.file.size > MAX_SHEET_BYTES) return sheetRefused(c, SHEET_TOO_LARGE);
		const upload = await uploadedText(form.file, sheetMarks(c), SHEET_WORDS);
		if (!upload.ok) return sheetRefused(c, upload.message);
		const sheet = readSheet(upload.text);
		if (!sheet.ok) return sheetRefused(c, sheet.message);
		const orders = await checkSheet(c.env, await orderOwnerOf(c), sheet.orders);
		return page(
			c,
			<SheetPage {...frameOf(c)} error={null} checked={{ orders, carried: upload.carried }} placed={null} />,
		);
	},
);

// The create: only the very file this session previewed, judged again now, each ready order created as the API creates it.
placeOrderRoutes.post(
	"/csv/create",
	formSizeLimit(maxCarriedCharacters(MAX_SHEET_BYTES) + 16 * 1024, SHEET_TOO_LARGE),
	requirePartnerCsrf,
	async (c) => {
		const confirmed = await confirmedText(await readForm(c), sheetMarks(c), MAX_SHEET_BYTES);
		if (!confirmed.ok) return sheetRefused(c, confirmed.message);
		const sheet = readSheet(confirmed.text);
		if (!sheet.ok) return sheetRefused(c, sheet.message);
		const outcome = await placeSheet(c.env, await orderOwnerOf(c), sheet.orders);
		for (const placed of outcome.placed) {
			if (placed.kind === "created") c.executionCtx.waitUntil(startOrder(c.env, placed.created, c.var.requestId));
		}
		return page(
			c,
			<SheetPage
				{...frameOf(c)}
				error={null}
				checked={null}
				placed={{ orders: outcome.checked, placed: outcome.placed }}
			/>,
		);
	},
);
