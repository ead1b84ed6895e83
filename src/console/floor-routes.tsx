/**
 * The floor's pages, all behind sign-in: the queue (where a scanned work ticket opens its order), an
 * order and its moves (its start among them), the order's packing slip,
 * work tickets and (for an order abroad) commercial invoice, a batch of work tickets, the bulk shipments import, and print file downloads.
 * Each handler reads the request, calls the work it names and renders its page; the work itself
 * lives in the capabilities (orders, production) and in the console's own helpers.
 */
import { type Context, Hono } from "hono";
import { bodyLimit } from "hono/body-limit";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import { listAccountNames } from "../accounts/store.ts";
import { configOf } from "../config.ts";
import { databaseOf, directoryDatabase, findInEveryDatabase } from "../databases.ts";
import { type CarryMarks, sessionMarks } from "../http/carried-file.ts";
import { ApiError, refusalStatus } from "../http/errors.ts";
import { page, readForm } from "../http/html-pages.ts";
import { consoleSessionSecret } from "../http/session-forms.ts";
import { movesOfOrder } from "../orders/archive-store.ts";
import { floorRefusal } from "../orders/edit-window.ts";
import { floorCounts } from "../orders/floor-queue.ts";
import { listOrderMoves } from "../orders/history.ts";
import { moveAsOperator, moveShipmentAsOperator, shipUnitsAsOperator } from "../orders/operator-moves.ts";
import { renderOrderInvoice } from "../production/invoice-page.ts";
import { loadOrderSheet } from "../production/order-sheet.ts";
import { isPaperSize } from "../production/packing-slip.tsx";
import { downloadPrintFile } from "../production/print-file-download.ts";
import { OWN_IMAGES_POLICY, PAGE_SECURITY_HEADERS, renderPackingSlip } from "../production/slip-page.ts";
import { WorkTicketsQuery, workTicketBatch, workTicketOf } from "../production/ticket-batches.ts";
import { orderIdOfTicketCode } from "../production/ticket-code.ts";
import { MAX_IMPORT_BYTES } from "../shipment-import/csv-file.ts";
import { importShipments } from "../shipment-import/import-rows.ts";
import { previewShipments } from "../shipment-import/preview.ts";
import type { ConsoleEnv, OperatorEnv } from "./console-env.ts";
import { ImportPage } from "./import-page.tsx";
import { confirmedRows, MAX_CARRIED_CHARACTERS, uploadedRows } from "./import-upload.ts";
import { type ConsoleMove, cancelConfirmed, type InvalidMoveForm, isConsoleMove, moveFromForm } from "./move-forms.ts";
import { OrderPage } from "./order-page.tsx";
import type { ShipmentFormOutcome } from "./order-shipments.tsx";
import { QueuePage } from "./queue-page.tsx";
import { queueRows } from "./queue-rows.ts";
import { askedQueue } from "./queue-search.ts";
import { errorPage, refusalPage } from "./responses.tsx";
import { requireCsrf, requireSession } from "./session-gate.ts";
import { fieldOfPath, isShipmentAction, type ShipmentAction, shipmentFromForm } from "./shipment-forms.ts";

export const floorRoutes = new Hono<ConsoleEnv>();

/** The shipments preview's marks for a session: under the console's secret, which a signed-in session implies. */
function importMarks(env: Env, sessionId: string): CarryMarks {
	return sessionMarks(consoleSessionSecret(env), sessionId, "import");
}

floorRoutes.get("/orders", requireSession, async (c) => {
	// A work ticket scanned into the search box opens its order, where the floor starts it.
	const scanned = orderIdOfTicketCode(c.req.query("q") ?? "");
	if (scanned !== null) return c.redirect(`/ops/orders/${scanned}#start`, 303);
	const asked = askedQueue(c.req.query());
	const [counts, partners] = await Promise.all([
		floorCounts(c.env, asked.search.mode),
		listAccountNames(directoryDatabase(c.env)),
	]);
	const slaHours = configOf(c.env).PRODUCTION_SLA_HOURS;
	const base = { search: asked.search, counts, partners, slaHours, csrfToken: c.var.operator.csrfToken };
	if (!asked.ok) {
		const none = { rows: [], nextPageHref: null, morePartnersNamed: false };
		return page(c, <QueuePage {...base} {...none} valid={false} error={asked.error} />, 422);
	}
	const shown = await queueRows(c.env, asked.query, asked.search, asked.statuses, slaHours);
	return page(c, <QueuePage {...base} {...shown} valid={true} error={null} />);
});

/**
 * What the order page says about the last move or shipment form: done, refused by the order's
 * status, or a form to fix.
 */
type MoveOutcome = {
	done: ConsoleMove | ShipmentAction | null;
	refusal: string | null;
	invalid: InvalidMoveForm | null;
	shipmentForm: ShipmentFormOutcome;
	/** A cancel asked for with this reason, not yet confirmed: the page asks to confirm it. */
	confirmCancel: string | null;
};
const NO_OUTCOME: MoveOutcome = {
	done: null,
	refusal: null,
	invalid: null,
	shipmentForm: { refusal: null, invalid: null },
	confirmCancel: null,
};

/** The 422 page of a paper size the floor's printed pages do not come in. */
function noSuchPaper(c: Context<OperatorEnv>, paper: string): Promise<Response> {
	const message = `There is no paper size "${paper}": use letter or a4, or leave it out.`;
	return errorPage(c, 422, message, c.var.operator.csrfToken);
}

/** The order page with a move's outcome, or a 404 page when there is no such order. */
async function orderPage(
	c: Context<OperatorEnv>,
	orderId: string,
	outcome: MoveOutcome,
	status: ContentfulStatusCode,
): Promise<Response> {
	const csrfToken = c.var.operator.csrfToken;
	const [sheet, hotMoves] = await Promise.all([
		loadOrderSheet(c.env, orderId),
		findInEveryDatabase(c.env, async (database) => {
			const moves = await listOrderMoves(database, orderId);
			return moves.length === 0 ? null : moves;
		}).then((moves) => moves ?? []),
	]);
	if (sheet === null) return noSuchOrder(c, orderId);
	// An archived order's moves are in its record, not in D1.
	const history =
		sheet.stored.archivedAt === undefined
			? hotMoves
			: await movesOfOrder(databaseOf(c.env, sheet.stored.order.account_id), c.env.PRINT_FILES, sheet.stored);
	const response = await page(
		c,
		<OrderPage sheet={sheet} history={history} csrfToken={csrfToken} {...outcome} />,
		status,
	);
	// The items' thumbnails and previews are this origin's images, served behind the same session.
	response.headers.set("Content-Security-Policy", OWN_IMAGES_POLICY);
	return response;
}

function noSuchOrder(c: Context<OperatorEnv>, orderId: string): Promise<Response> {
	return errorPage(c, 404, `There is no order ${orderId}.`, c.var.operator.csrfToken);
}

floorRoutes.get("/orders/:id", requireSession, (c) => {
	const done = c.req.query("done") ?? "";
	const known = isConsoleMove(done) || isShipmentAction(done) ? done : null;
	return orderPage(c, c.req.param("id"), { ...NO_OUTCOME, done: known }, 200);
});

// A shipment of the units chosen, through the same path as POST /v1/ops/orders/{id}/shipments. Mounted
// before the moves' route, whose pattern would read "shipments" as "ship".
floorRoutes.post("/orders/:id/shipments", requireSession, requireCsrf, async (c) => {
	const id = c.req.param("id");
	const parsed = shipmentFromForm(await readForm(c));
	if (!parsed.ok) {
		const invalid = { values: parsed.values, fieldErrors: parsed.fieldErrors };
		return orderPage(c, id, { ...NO_OUTCOME, shipmentForm: { refusal: null, invalid } }, 422);
	}
	const shipped = await shipUnitsAsOperator(c.env, id, parsed.body);
	if (shipped.ok) {
		return c.redirect(`/ops/orders/${id}?done=${shipped.repeated ? "shipment_repeat" : "shipment"}`, 303);
	}
	const status = refusalStatus(shipped);
	if (status === 409) {
		return orderPage(c, id, { ...NO_OUTCOME, shipmentForm: { refusal: shipped.message, invalid: null } }, 409);
	}
	if (status !== 422) return refusalPage(c, shipped, c.var.operator.csrfToken);
	// The machine names the entry at fault (items[i].quantity): shown beside that item's field.
	const field = fieldOfPath(shipped.field ?? "form", parsed.body.items ?? []);
	const values: Record<string, string> = { carrier: parsed.body.carrier, number: parsed.body.number };
	values.url = parsed.body.url ?? "";
	for (const unit of parsed.body.items ?? []) values[`units.${unit.item_id}`] = String(unit.quantity);
	const invalid = { values, fieldErrors: { [field]: shipped.message } };
	return orderPage(c, id, { ...NO_OUTCOME, shipmentForm: { refusal: null, invalid } }, 422);
});

// One shipment delivered or returned, through the same path as POST /v1/ops/shipments/{id}/deliver|return.
floorRoutes.post("/orders/:id/shipments/:shipment/:action{deliver|return}", requireSession, requireCsrf, async (c) => {
	const id = c.req.param("id");
	const action = c.req.param("action") === "deliver" ? "deliver" : "return";
	const moved = await moveShipmentAsOperator(c.env, c.req.param("shipment"), action, id);
	if (moved.ok) return c.redirect(`/ops/orders/${id}?done=shipment_${action}`, 303);
	if (refusalStatus(moved) !== 409) return refusalPage(c, moved, c.var.operator.csrfToken);
	return orderPage(c, id, { ...NO_OUTCOME, shipmentForm: { refusal: moved.message, invalid: null } }, 409);
});

floorRoutes.post(
	"/orders/:id/:move{start|ship|hold|release|deliver|cancel}",
	requireSession,
	requireCsrf,
	async (c) => {
		const id = c.req.param("id");
		const move = c.req.param("move");
		if (!isConsoleMove(move)) return errorPage(c, 404, `There is no move ${move}.`, c.var.operator.csrfToken);
		const form = await readForm(c);
		const parsed = moveFromForm(move, form);
		if (!parsed.ok) {
			const invalid = { move, values: parsed.values, fieldErrors: parsed.fieldErrors };
			return orderPage(c, id, { ...NO_OUTCOME, invalid }, 422);
		}
		// A cancel cannot be undone: its first press only asks to confirm, with the reason given.
		if (parsed.move.kind === "cancel" && !cancelConfirmed(form)) {
			return orderPage(c, id, { ...NO_OUTCOME, confirmCancel: parsed.move.reason ?? "" }, 200);
		}
		// The same path as the ops API: the order's Durable Object decides, from the transition table. A
		// move the order's status does not allow is shown on the order's page.
		const moved = await moveAsOperator(c.env, id, parsed.move);
		if (moved.ok) return c.redirect(`/ops/orders/${id}?done=${move}`, 303);
		if (refusalStatus(moved) !== 409) return refusalPage(c, moved, c.var.operator.csrfToken);
		return orderPage(c, id, { ...NO_OUTCOME, refusal: moved.message }, 409);
	},
);

floorRoutes.get("/orders/:id/packing-slip", requireSession, async (c) => {
	const paper = c.req.query("paper") ?? null;
	if (paper !== null && !isPaperSize(paper)) return noSuchPaper(c, paper);
	const id = c.req.param("id");
	const sheet = await loadOrderSheet(c.env, id);
	if (sheet === null) return noSuchOrder(c, id);
	return c.html(await renderPackingSlip(c.env, sheet, paper), 200);
});

floorRoutes.get("/orders/:id/commercial-invoice", requireSession, async (c) => {
	const paper = c.req.query("paper") ?? null;
	if (paper !== null && !isPaperSize(paper)) return noSuchPaper(c, paper);
	const id = c.req.param("id");
	const sheet = await loadOrderSheet(c.env, id);
	if (sheet === null) return noSuchOrder(c, id);
	const invoice = await renderOrderInvoice(c.env, sheet, paper);
	if (!invoice.ok) return refusalPage(c, invoice, c.var.operator.csrfToken);
	return c.html(invoice.html, 200, PAGE_SECURITY_HEADERS);
});

floorRoutes.get("/orders/:id/work-ticket", requireSession, async (c) => {
	const id = c.req.param("id");
	const sheet = await loadOrderSheet(c.env, id);
	if (sheet === null) return noSuchOrder(c, id);
	const inWindow = floorRefusal(sheet.order, new Date());
	if (inWindow !== null) return errorPage(c, 409, inWindow, c.var.operator.csrfToken);
	return c.html(await workTicketOf(c.env, sheet), 200, PAGE_SECURITY_HEADERS);
});

floorRoutes.get("/work-tickets", requireSession, async (c) => {
	const parsed = WorkTicketsQuery.safeParse(c.req.query());
	if (!parsed.success) {
		const issue = parsed.error.issues[0];
		const message = `${issue?.path.join(".") ?? "query"}: ${issue?.message ?? "not understood"}`;
		return errorPage(c, 422, `These work tickets cannot be listed (${message}).`, c.var.operator.csrfToken);
	}
	const { html } = await workTicketBatch(c.env, parsed.data, "/ops/work-tickets");
	return c.html(html, 200, PAGE_SECURITY_HEADERS);
});

floorRoutes.get("/shipments/import", requireSession, (c) =>
	page(c, <ImportPage csrfToken={c.var.operator.csrfToken} previewed={null} report={null} error={null} />),
);

/** The import's own size limit (the API's 1 MiB does not apply here), refused as a page rather than JSON. */
function importSizeLimit(maxSize: number) {
	return bodyLimit({
		maxSize,
		onError: () => {
			throw new ApiError("body_too_large", `The file is larger than ${MAX_IMPORT_BYTES / 1024 / 1024} MiB: split it.`);
		},
	});
}

/** A confirm carries the file as base64 (a third larger), with its digest and the form token. */
const CONFIRM_FORM_BYTES = MAX_CARRIED_CHARACTERS + 16 * 1024;

// The upload is a dry run: it shows what each row would do and changes nothing.
floorRoutes.post("/shipments/import", requireSession, importSizeLimit(MAX_IMPORT_BYTES), requireCsrf, async (c) => {
	const csrfToken = c.var.operator.csrfToken;
	const upload = await uploadedRows((await readForm(c)).file, importMarks(c.env, c.var.operator.id));
	if (!upload.ok) {
		return page(c, <ImportPage csrfToken={csrfToken} previewed={null} report={null} error={upload.message} />, 422);
	}
	const previewed = { preview: await previewShipments(c.env, upload.rows), carried: upload.carried };
	return page(c, <ImportPage csrfToken={csrfToken} previewed={previewed} report={null} error={null} />);
});

// The confirm imports the very file previewed, judged against the orders as they are now.
floorRoutes.post(
	"/shipments/import/confirm",
	requireSession,
	importSizeLimit(CONFIRM_FORM_BYTES),
	requireCsrf,
	async (c) => {
		const csrfToken = c.var.operator.csrfToken;
		const confirmed = await confirmedRows(await readForm(c), importMarks(c.env, c.var.operator.id));
		if (!confirmed.ok) {
			const error = confirmed.message;
			return page(c, <ImportPage csrfToken={csrfToken} previewed={null} report={null} error={error} />, 422);
		}
		const report = await importShipments(c.env, confirmed.rows);
		return page(c, <ImportPage csrfToken={csrfToken} previewed={null} report={report} error={null} />);
	},
);

floorRoutes.get("/print-files/:id/download", requireSession, async (c) => {
	const download = await downloadPrintFile(c.env, c.req.param("id"), c.req.query("item_id") ?? null);
	if (!download.ok) return refusalPage(c, download, c.var.operator.csrfToken);
	return c.body(download.body, 200, download.headers);
});
