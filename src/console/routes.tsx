import { type Context, Hono } from "hono";
import { bodyLimit } from "hono/body-limit";
import { deleteCookie, getCookie, setCookie } from "hono/cookie";
import { createMiddleware } from "hono/factory";
import type { BodyData } from "hono/utils/body";
import type { HtmlEscapedString } from "hono/utils/html";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import { hashApiKey, modeOfApiKey } from "../accounts/keys.ts";
import { keyScopeProblem } from "../accounts/scopes.ts";
import { accountNames, findKeyByHash, listAccountNames } from "../accounts/store.ts";
import { configOf } from "../config.ts";
import { sizeText } from "../framing/words.ts";
import { decodeCursor, encodeCursor } from "../http/cursor.ts";
import { ApiError } from "../http/errors.ts";
import { toApiError } from "../http/on-error.ts";
import { listOrderMoves } from "../orders/history.ts";
import { moveAsOperator } from "../orders/operator-moves.ts";
import { QueueQuery } from "../orders/queue-query.ts";
import { countOrdersByStatus, listProductionQueue } from "../orders/queue-store.ts";
import type { ItemRow } from "../orders/rows.ts";
import { loadOrderSheet } from "../production/order-sheet.ts";
import { PAPER_SIZES, type PaperSize } from "../production/packing-slip.tsx";
import { downloadPrintFile } from "../production/print-file-download.ts";
import { decodeImport, MAX_IMPORT_BYTES, NOT_UTF8, parseImport } from "../production/shipments-csv.ts";
import { importShipments } from "../production/shipments-import.ts";
import { PAGE_SECURITY_HEADERS, renderPackingSlip } from "../production/slip-page.ts";
import { WorkTicketsQuery, workTicketBatch, workTicketOf } from "../production/ticket-batches.ts";
import { isCrossSitePost } from "./cross-site.ts";
import { ErrorPage } from "./error-page.tsx";
import { holdReasonLabel, hoursSince } from "./format.ts";
import { ImportPage } from "./import-page.tsx";
import { type ConsoleMove, isConsoleMove, moveFromForm } from "./move-forms.ts";
import { type InvalidMoveForm, OrderPage } from "./order-page.tsx";
import { QueuePage, type QueueSearch, queueHref } from "./queue-page.tsx";
import {
	csrfTokenMatches,
	csrfTokenOf,
	SESSION_COOKIE,
	SESSION_SECONDS,
	signSessionCookie,
	verifySessionCookie,
} from "./session.ts";
import { deleteSession, findLiveSession, insertSession, newSessionId } from "./session-store.ts";
import { SignInPage } from "./sign-in-page.tsx";

/** A signed-in operator: their session and the token their forms carry. */
type OperatorSession = { id: string; keyId: string; csrfToken: string };

type ConsoleEnv = { Bindings: Env; Variables: { requestId: string; session: OperatorSession | null } };
type SignedInEnv = { Bindings: Env; Variables: { requestId: string; operator: OperatorSession } };
/** Routes behind `requireSession`: Hono merges the middleware's variables into the app's. */
type OperatorEnv = ConsoleEnv & SignedInEnv;

const QUEUE_PAGE_SIZE = 50;
const SIGN_IN_PATH = "/ops/sign-in";

/** The secret, or null when the console is not configured (an empty value counts as none). */
function sessionSecret(env: Env): string | null {
	return configOf(env).CONSOLE_SESSION_SECRET ?? null;
}

/** A complete HTML page. */
async function page(
	c: Context,
	element: HtmlEscapedString | Promise<HtmlEscapedString>,
	status: ContentfulStatusCode = 200,
): Promise<Response> {
	return c.html(`<!doctype html>${await element}`, status);
}

const ERROR_TITLES: Readonly<Record<number, string>> = {
	400: "Bad request",
	401: "Not signed in",
	403: "Not allowed",
	404: "Not found",
	409: "Not possible now",
	422: "Check the request",
	429: "Too many requests",
	500: "Something went wrong",
	503: "Console not configured",
};

/** An error as a page; `csrfToken` is the signed-in operator's (for the header's sign-out), or null. */
function errorPage(
	c: Context,
	status: ContentfulStatusCode,
	message: string,
	csrfToken: string | null,
): Promise<Response> {
	const requestId: unknown = c.get("requestId");
	const props = {
		title: ERROR_TITLES[status] ?? "Error",
		message,
		requestId: typeof requestId === "string" ? requestId : "unknown",
		csrfToken,
	};
	return page(c, <ErrorPage {...props} />, status);
}

/** The operator console: server-rendered pages under /ops, signed in with an ops key. */
export const consoleRoutes = new Hono<ConsoleEnv>();

consoleRoutes.onError((error, c) => {
	const apiError = toApiError(error);
	if (apiError.type === "server_error") {
		console.error(
			JSON.stringify({
				level: "error",
				request_id: c.get("requestId") ?? "unknown",
				error: error.name,
				message: error.message,
				stack: error.stack,
			}),
		);
	}
	return errorPage(c, apiError.status, apiError.message, c.get("session")?.csrfToken ?? null);
});

consoleRoutes.use("*", async (c, next) => {
	for (const [name, value] of Object.entries(PAGE_SECURITY_HEADERS)) c.header(name, value);
	c.set("session", null);
	// Same-origin forms send our own origin; a browser posting from another site names that site, so the
	// form token is not the only defence (and sign-in, which has no token yet, is covered too).
	const postedFrom = { origin: c.req.header("Origin"), secFetchSite: c.req.header("Sec-Fetch-Site") };
	if (c.req.method === "POST" && isCrossSitePost(postedFrom, new URL(c.req.url).origin)) {
		return errorPage(c, 403, "This form was sent from another site; it was refused and nothing changed.", null);
	}
	const secret = sessionSecret(c.env);
	const cookie = getCookie(c, SESSION_COOKIE, "host");
	if (secret !== null && cookie !== undefined) {
		const now = new Date();
		const signed = await verifySessionCookie(secret, cookie, Math.floor(now.getTime() / 1000));
		const stored = signed === null ? null : await findLiveSession(c.env.DB, signed.sessionId, now);
		if (stored !== null) {
			c.set("session", { id: stored.id, keyId: stored.keyId, csrfToken: await csrfTokenOf(secret, stored.id) });
		}
	}
	await next();
});

/** Pages behind sign-in: without a live session, to the sign-in page (and a dead cookie is cleared). */
const requireSession = createMiddleware<OperatorEnv>(async (c, next) => {
	const session = c.get("session");
	if (session === null) {
		if (getCookie(c, SESSION_COOKIE, "host") !== undefined) clearSessionCookie(c);
		return c.redirect(SIGN_IN_PATH, 303);
	}
	c.set("operator", session);
	await next();
});

/** The posted form's fields; a body that is not the form it claims to be (say, multipart without a boundary) is a 400 page. */
async function readForm(c: Context): Promise<BodyData> {
	try {
		return await c.req.parseBody();
	} catch {
		throw new ApiError(
			"bad_request",
			"The form could not be read: send it as application/x-www-form-urlencoded or multipart/form-data.",
		);
	}
}

/** Form posts of a signed-in operator must carry their session's `_csrf`; otherwise 403 and nothing changes. */
const requireCsrf = createMiddleware<OperatorEnv>(async (c, next) => {
	const secret = sessionSecret(c.env);
	const form = await readForm(c);
	const submitted = form._csrf;
	const valid =
		secret !== null && typeof submitted === "string" && (await csrfTokenMatches(secret, c.var.operator.id, submitted));
	if (!valid) {
		return errorPage(
			c,
			403,
			"This form is out of date or did not come from this console, so nothing was changed. Reload the page and try again.",
			c.var.operator.csrfToken,
		);
	}
	await next();
});

function setSessionCookie(c: Context, value: string): void {
	setCookie(c, SESSION_COOKIE, value, {
		prefix: "host",
		httpOnly: true,
		secure: true,
		sameSite: "Strict",
		path: "/",
		maxAge: SESSION_SECONDS,
	});
}

function clearSessionCookie(c: Context): void {
	deleteCookie(c, SESSION_COOKIE, { prefix: "host", httpOnly: true, secure: true, sameSite: "Strict", path: "/" });
}

const NOT_CONFIGURED =
	"The console is not configured: the worker has no CONSOLE_SESSION_SECRET, so no one can sign in. Ask whoever deploys it to set one.";

consoleRoutes.get("/", (c) => c.redirect(c.get("session") === null ? SIGN_IN_PATH : "/ops/orders", 303));

consoleRoutes.get("/sign-in", (c) => {
	if (sessionSecret(c.env) === null) return page(c, <SignInPage error={NOT_CONFIGURED} />, 503);
	return page(c, <SignInPage error={null} />);
});

consoleRoutes.post("/sign-in", async (c) => {
	const secret = sessionSecret(c.env);
	if (secret === null) return page(c, <SignInPage error={NOT_CONFIGURED} />, 503);
	const form = await readForm(c);
	const key = typeof form.key === "string" ? form.key.trim() : "";
	const refuse = (status: 401 | 403, message: string) => page(c, <SignInPage error={message} />, status);
	if (key === "") return refuse(401, "Enter your API key.");
	// Checked before any database read, like the API's bearer auth: junk never reaches D1.
	if (modeOfApiKey(key) === null) {
		return refuse(401, "That is not an API key: keys look like fps_live_… or fps_test_….");
	}
	const found = await findKeyByHash(c.env.DB, await hashApiKey(key));
	if (found === null) return refuse(401, "That API key is not valid.");
	if (found === "revoked") return refuse(401, "That API key has been revoked.");
	if (!found.scopes.includes("ops")) {
		return refuse(403, "This key cannot sign in: the console is for operations keys (scope ops) only.");
	}
	// As on the API: a test-mode ops key from before ops keys were live-only must not reach live orders.
	const problem = keyScopeProblem(found.mode, found.scopes);
	if (problem !== null) return refuse(403, `This key cannot sign in: ${problem}. Ask for a live ops key.`);
	const now = new Date();
	const expiresUnix = Math.floor(now.getTime() / 1000) + SESSION_SECONDS;
	const sessionId = newSessionId();
	await insertSession(
		c.env.DB,
		{ id: sessionId, keyId: found.keyId, expiresAt: new Date(expiresUnix * 1000).toISOString() },
		now,
	);
	setSessionCookie(c, await signSessionCookie(secret, sessionId, expiresUnix));
	return c.redirect("/ops/orders", 303);
});

consoleRoutes.post("/sign-out", requireSession, requireCsrf, async (c) => {
	await deleteSession(c.env.DB, c.var.operator.id);
	clearSessionCookie(c);
	return c.redirect(SIGN_IN_PATH, 303);
});

/** The largest finished piece of an order's items (by area), in words; null when none is priced yet. */
function largestPiece(items: readonly ItemRow[]): string | null {
	let largest: { width_in: number; height_in: number } | null = null;
	for (const item of items) {
		const outside = item.priced?.dimensions.outside;
		if (outside === undefined) continue;
		if (largest === null || outside.width_in * outside.height_in > largest.width_in * largest.height_in) {
			largest = outside;
		}
	}
	return largest === null ? null : sizeText(largest);
}

consoleRoutes.get("/orders", requireSession, async (c) => {
	const csrfToken = c.var.operator.csrfToken;
	// The search form sends every field; one left empty ("All partners", "Any status") is no filter.
	const asked = Object.fromEntries(Object.entries(c.req.query()).filter(([, value]) => value !== ""));
	const parsed = QueueQuery.safeParse(asked);
	const search: QueueSearch = {
		q: parsed.success ? (parsed.data.q ?? "") : (asked.q ?? "").slice(0, 128),
		accountId: parsed.success ? (parsed.data.account_id ?? "") : "",
		status: parsed.success ? (parsed.data.status ?? null) : null,
		mode: parsed.success ? parsed.data.mode : "live",
	};
	const [counts, partners] = await Promise.all([
		countOrdersByStatus(c.env.DB, search.mode),
		listAccountNames(c.env.DB),
	]);
	const slaHours = configOf(c.env).PRODUCTION_SLA_HOURS;
	const base = { search, counts, partners, slaHours, csrfToken };
	if (!parsed.success) {
		const issue = parsed.error.issues[0];
		const field = String(issue?.path[0] ?? "query");
		const error =
			field === "status"
				? `There is no status "${asked.status ?? ""}": pick one of the filters above.`
				: `The ${field} filter cannot be used: ${issue?.message ?? "not understood"}.`;
		return page(
			c,
			<QueuePage {...base} valid={false} rows={[]} nextPageHref={null} error={error} morePartnersNamed={false} />,
			422,
		);
	}
	const query = parsed.data;
	const {
		page: orders,
		more,
		partnerSearch,
	} = await listProductionQueue(c.env.DB, {
		q: query.q,
		accountId: query.account_id,
		status: query.status,
		mode: query.mode,
		limit: QUEUE_PAGE_SIZE,
		...(query.cursor === undefined ? {} : { cursor: decodeCursor(query.cursor) }),
	});
	const names = await accountNames(
		c.env.DB,
		orders.map(({ order }) => order.account_id),
	);
	const now = new Date();
	const rows = orders.map(({ order, items }) => {
		const ageHours = hoursSince(order.updated_at, now);
		return {
			id: order.id,
			externalId: order.external_id,
			partnerName: names.get(order.account_id) ?? order.account_id,
			mode: order.mode,
			status: order.status,
			holdReason: order.status === "on_hold" && order.hold_reason !== null ? holdReasonLabel(order.hold_reason) : null,
			itemCount: items.length,
			largest: largestPiece(items),
			createdAt: order.created_at,
			ageHours,
			late: order.status === "in_production" && ageHours >= slaHours,
		};
	});
	const last = orders.at(-1)?.order;
	const nextPageHref =
		more && last !== undefined ? queueHref(search, encodeCursor({ createdAt: last.created_at, id: last.id })) : null;
	return page(
		c,
		<QueuePage
			{...base}
			valid={true}
			rows={rows}
			nextPageHref={nextPageHref}
			error={null}
			morePartnersNamed={partnerSearch?.more ?? false}
		/>,
	);
});

/** The order page, with the outcome of a move that did not go through when there is one. */
async function orderPage(
	c: Context<OperatorEnv>,
	orderId: string,
	outcome: { done: ConsoleMove | null; refusal: string | null; invalid: InvalidMoveForm | null },
	status: ContentfulStatusCode,
): Promise<Response> {
	const csrfToken = c.var.operator.csrfToken;
	const [sheet, history] = await Promise.all([loadOrderSheet(c.env, orderId), listOrderMoves(c.env.DB, orderId)]);
	if (sheet === null) return errorPage(c, 404, `There is no order ${orderId}.`, csrfToken);
	return page(c, <OrderPage sheet={sheet} history={history} csrfToken={csrfToken} {...outcome} />, status);
}

consoleRoutes.get("/orders/:id", requireSession, (c) => {
	const done = c.req.query("done") ?? "";
	return orderPage(
		c,
		c.req.param("id"),
		{ done: isConsoleMove(done) ? done : null, refusal: null, invalid: null },
		200,
	);
});

consoleRoutes.get("/orders/:id/packing-slip", requireSession, async (c) => {
	const paperParam = c.req.query("paper");
	if (paperParam !== undefined && !(PAPER_SIZES as readonly string[]).includes(paperParam)) {
		return errorPage(
			c,
			422,
			`There is no paper size "${paperParam}": use letter or a4, or leave it out.`,
			c.var.operator.csrfToken,
		);
	}
	const id = c.req.param("id");
	const sheet = await loadOrderSheet(c.env, id);
	if (sheet === null) return errorPage(c, 404, `There is no order ${id}.`, c.var.operator.csrfToken);
	const paper = (paperParam ?? null) as PaperSize | null;
	return c.html(await renderPackingSlip(c.env, sheet, paper), 200);
});

consoleRoutes.get("/orders/:id/work-ticket", requireSession, async (c) => {
	const id = c.req.param("id");
	const sheet = await loadOrderSheet(c.env, id);
	if (sheet === null) return errorPage(c, 404, `There is no order ${id}.`, c.var.operator.csrfToken);
	return c.html(await workTicketOf(c.env, sheet), 200, PAGE_SECURITY_HEADERS);
});

consoleRoutes.get("/work-tickets", requireSession, async (c) => {
	const parsed = WorkTicketsQuery.safeParse(c.req.query());
	if (!parsed.success) {
		const issue = parsed.error.issues[0];
		const message = `${issue?.path.join(".") ?? "query"}: ${issue?.message ?? "not understood"}`;
		return errorPage(c, 422, `These work tickets cannot be listed (${message}).`, c.var.operator.csrfToken);
	}
	const query = parsed.data;
	const { html } = await workTicketBatch(c.env, query, "/ops/work-tickets");
	return c.html(html, 200, PAGE_SECURITY_HEADERS);
});

consoleRoutes.get("/shipments/import", requireSession, (c) =>
	page(c, <ImportPage csrfToken={c.var.operator.csrfToken} report={null} error={null} />),
);

consoleRoutes.post(
	"/shipments/import",
	requireSession,
	bodyLimit({
		maxSize: MAX_IMPORT_BYTES,
		onError: () => {
			throw new ApiError("bad_request", `The file is larger than ${MAX_IMPORT_BYTES / 1024 / 1024} MiB: split it.`);
		},
	}),
	requireCsrf,
	async (c) => {
		const csrfToken = c.var.operator.csrfToken;
		const file = (await readForm(c)).file;
		const refuse = (error: string) => page(c, <ImportPage csrfToken={csrfToken} report={null} error={error} />, 422);
		if (!(file instanceof File)) return refuse("Choose a CSV file to upload.");
		const text = decodeImport(await file.arrayBuffer());
		if (text === null) return refuse(NOT_UTF8);
		const parsed = parseImport(text);
		if (!parsed.ok) return refuse(parsed.message);
		const report = await importShipments(c.env, parsed.rows);
		return page(c, <ImportPage csrfToken={csrfToken} report={report} error={null} />);
	},
);

consoleRoutes.get("/print-files/:id/download", requireSession, async (c) => {
	const download = await downloadPrintFile(c.env, c.req.param("id"), c.req.query("item_id") ?? null);
	if (!download.ok) return errorPage(c, download.status, download.message, c.var.operator.csrfToken);
	return c.body(download.body, 200, download.headers);
});

consoleRoutes.post("/orders/:id/:move{ship|hold|release|deliver|cancel}", requireSession, requireCsrf, async (c) => {
	const id = c.req.param("id");
	const move = c.req.param("move");
	if (!isConsoleMove(move)) return errorPage(c, 404, `There is no move ${move}.`, c.var.operator.csrfToken);
	const parsed = moveFromForm(move, await readForm(c));
	if (!parsed.ok) {
		const invalid = { move, values: parsed.values, fieldErrors: parsed.fieldErrors };
		return orderPage(c, id, { done: null, refusal: null, invalid }, 422);
	}
	try {
		// The same path as the ops API: the order's Durable Object decides, from the transition table.
		await moveAsOperator(c.env, id, parsed.move);
	} catch (error) {
		if (error instanceof ApiError && error.type === "conflict") {
			return orderPage(c, id, { done: null, refusal: error.message, invalid: null }, 409);
		}
		throw error;
	}
	return c.redirect(`/ops/orders/${id}?done=${move}`, 303);
});

// Last: every other path under /ops is a console 404 page, not the API's JSON one.
consoleRoutes.all("*", (c) =>
	errorPage(c, 404, `There is no page at ${c.req.path}.`, c.get("session")?.csrfToken ?? null),
);
