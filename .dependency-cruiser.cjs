/**
 * The architecture, as rules on imports. `npm run lint:deps` (part of `npm test`) fails on any of them.
 *
 * Layers, top to bottom; an import points down, never up:
 *   entry           src/index.ts (Worker: fetch, queue, cron, Durable Objects), src/app.ts (the Hono app)
 *   pages, routes   each capability's routes.ts / *-routes.ts, the console, the OpenAPI document (which
 *                   gathers the events of the capabilities that own them: orders, claims); a folder's
 *                   routes use what its logic may (MAY_USE), and a leaf folder's routes also the key check
 *                   they stand behind (ROUTES_ALSO_USE: the address check's route)
 *   capabilities    each folder's logic, store and Durable Objects, in this order (a folder may use
 *                   the ones listed after it, never one before it):
 *                     console, partner-console > openapi > production, shipment-import > framed-previews > file-retention > admin,
 *                     account-moves,
 *                     sandbox, order-archive > claims > orders > ledger > quotes > customs > money > branding > pricing > thumbnails >
 *                     webhooks, print-files >
 *                     catalog, health > access > idempotency, rate-limit > accounts, partner-users > addresses, framing > imaging
 *                   framed-previews draws an order's item (or a piece checked against the catalog) with its
 *                   file's thumbnail; thumbnails makes that thumbnail off the queue, from the stored file
 *                   print-files inspected; print-files' preflight judges a file at the catalog's sizes (catalog's)
 *                   with framing's fit figures, the rule quotes and orders share; access puts idempotency (the Idempotency-Key header and its kept
 *                   answers) behind the key check of every route that changes something; imaging, the
 *                   image formats (each one's probe and decoder, one parser per format), is pure and sits
 *                   below every folder: it imports none
 *   plumbing        src/http/ (errors, request id, validation hook, outbound-URL rules, cursors, page head)
 *   leaves          src/*.ts besides the entry (ids, base64, config, text rules, log, the database seam and
 *                   its read sessions): import no folder at all
 * Beside the layers, src/dev-tools/ (the cost tracer) is a measuring tool: only the entry uses it, to
 * wrap the Worker when COST_TRACE is on, and it knows nothing of the capabilities it measures.
 * Each capability owns its tables; test/architecture/table-ownership.test.ts checks the SQL side of that.
 */

/** Folders of capabilities and what each may import besides itself, plumbing and leaves. */
const MAY_USE = {
	console: [
		"customs",
		"money",
		"claims",
		"ledger",
		"production",
		"shipment-import",
		"framed-previews",
		"orders",
		"accounts",
		"print-files",
		"catalog",
		"branding",
		"access",
		"pricing",
		"framing",
	],
	// The partner console signs in the account's people and lets them do what the API does, through the
	// same functions: orders, claims, statements, keys and webhooks, the brand and its slip, print files;
	// the names of the events an endpoint may receive come from the document's event catalog (openapi).
	"partner-console": [
		"customs",
		"money",
		"openapi",
		"partner-users",
		"accounts",
		"production",
		"framed-previews",
		"claims",
		"orders",
		"ledger",
		"quotes",
		"branding",
		"pricing",
		"webhooks",
		"print-files",
		"catalog",
		"access",
		"addresses",
		"framing",
	],
	// The document also describes the webhooks the service sends: each event's body is the schema of the
	// capability that owns the event (orders', claims'), the headers that sign it the webhooks folder's.
	// Each operation that honours the Idempotency-Key header documents the replay's header (idempotency's).
	openapi: ["claims", "orders", "access", "accounts", "webhooks", "idempotency"],
	// The work ticket prints an item's framed preview; the file download names the file's format (imaging's).
	production: [
		"customs",
		"money",
		"framed-previews",
		"orders",
		"branding",
		"print-files",
		"catalog",
		"accounts",
		"addresses",
		"access",
		"pricing",
		"framing",
		"imaging",
	],
	// The shipments import ships each row through the order's own moves.
	"shipment-import": ["orders", "access", "accounts"],
	// The retention sweep asks each owner of a print file's uses (orders, claims, logos) what holds it.
	"file-retention": ["claims", "orders", "branding", "print-files"],
	admin: ["customs", "money", "ledger", "accounts", "partner-users", "webhooks", "access", "rate-limit"],
	// Moving an account copies, checks and removes its rows in every table by name from one plan (as a
	// migration does), so it imports no capability but the directory's accounts.
	"account-moves": ["access", "accounts"],
	// The sandbox makes the floor's, the carrier's and the service team's moves on test orders and claims
	// through their own functions, and sends sample events through webhooks' one-shot send.
	sandbox: ["money", "claims", "orders", "webhooks", "access", "accounts", "rate-limit"],
	// The archive run moves finished orders (orders' rows and records) to R2, leaving in D1 those with a
	// claim (claims') or a webhook delivery still being sent (webhooks').
	"order-archive": ["claims", "orders", "webhooks", "access", "accounts"],
	// Claims are made against orders' shipments and name print files as photos; a reprint is a new order.
	claims: ["money", "orders", "ledger", "webhooks", "print-files", "access", "accounts"],
	quotes: ["customs", "money", "pricing", "framing", "catalog", "print-files", "addresses", "access", "accounts"],
	orders: [
		"customs",
		"money",
		"ledger",
		"quotes",
		"webhooks",
		"print-files",
		"catalog",
		"rate-limit",
		"access",
		"accounts",
		"addresses",
		"pricing",
		"framing",
	],
	// The ledger's entries are written in the batches of the moves that cause them (orders', claims').
	ledger: ["money", "webhooks", "access", "accounts"],
	// Landed costs: the tables, and the arithmetic over declared values converted by the money folder's rule.
	customs: ["money", "pricing", "addresses", "access", "accounts"],
	// Currencies, exchange-rate sheets and the accounts' billing.
	money: ["access", "accounts"],
	branding: ["print-files", "access", "accounts", "addresses"],
	// Webhooks stores, signs and sends bodies it never reads: it knows no capability whose events it carries
	// (the app hands it their names).
	webhooks: ["access", "accounts"],
	// A framed preview draws an order's item (or a piece checked against the catalog) from framing's cut
	// list, with the print file's thumbnail (its state on the file's row) laid in its opening.
	"framed-previews": ["orders", "print-files", "catalog", "framing", "imaging", "access", "accounts"],
	// The queue's consumer decodes the stored file print-files inspected and records the thumbnail on its row.
	thumbnails: ["print-files", "imaging"],
	// Inspection probes a file's header with imaging's probes; the preflight judges the file at the
	// catalog's sizes with framing's fit figures.
	"print-files": ["imaging", "catalog", "framing", "access", "accounts"],
	catalog: ["access", "accounts"],
	health: [],
	pricing: ["framing", "catalog", "access", "accounts"],
	framing: [],
	// A route behind the key: the key's limits, its principal, and the Idempotency-Key header.
	access: ["idempotency", "rate-limit", "accounts"],
	// Keys are kept per account, mode and kind of credential, all read from the key's principal.
	idempotency: ["accounts"],
	"rate-limit": ["accounts"],
	accounts: [],
	// The console's people: users of an account, their passwords, invitations and lock-out.
	"partner-users": [],
	addresses: [],
	// The image formats: pure, over a ByteSource, below every folder.
	imaging: [],
};

/**
 * What a folder's routes may import besides what its logic may. Routes sit above every capability's
 * logic, so a leaf's logic served behind a key keeps its folder: the address check is pure, and its
 * route stands behind access (the key and its scope) and names the shipping methods pricing offers.
 */
const ROUTES_ALSO_USE = {
	addresses: ["access", "accounts", "pricing"],
};

/** A folder's routes files: its routes.ts and *-routes.ts. */
const routesOf = (folder) => `^src/${folder}/[a-z-]*routes\\.tsx?$`;

const capabilityRules = Object.entries(MAY_USE).flatMap(([folder, uses]) => {
	const rule = (name, files, from, allowed) => ({
		name,
		comment: `${files} may import ${allowed.length === 0 ? "no other capability" : allowed.join(", ")} (and plumbing and leaves).`,
		severity: "error",
		from,
		to: { path: "^src/[^/]+/", pathNot: `^src/(${[folder, "http", ...allowed].join("|")})/` },
	});
	const routesUse = ROUTES_ALSO_USE[folder];
	const logic = `src/${folder}/`;
	if (routesUse === undefined)
		return [rule(`${folder}-uses-only-what-is-below-it`, logic, { path: `^${logic}` }, uses)];
	return [
		rule(
			`${folder}-uses-only-what-is-below-it`,
			`${logic} besides its routes`,
			{ path: `^${logic}`, pathNot: routesOf(folder) },
			uses,
		),
		rule(
			`${folder}-routes-use-only-their-guard-and-what-is-below-it`,
			`${logic}'s routes`,
			{ path: routesOf(folder) },
			[...uses, ...routesUse],
		),
	];
});

module.exports = {
	forbidden: [
		{
			name: "no-circular",
			comment: "Import cycles are bugs: every module can be read with what it imports already known.",
			severity: "error",
			from: {},
			to: { circular: true },
		},
		{
			name: "http-is-plumbing",
			comment: "src/http/ is the plumbing every capability uses; it imports no capability.",
			severity: "error",
			from: { path: "^src/http/" },
			to: { path: "^src/[^/]+/", pathNot: "^src/http/" },
		},
		{
			name: "leaves-import-no-folder",
			comment: "Leaves (src/*.ts besides the entry) import only other leaves.",
			severity: "error",
			from: { path: "^src/[^/]+\\.tsx?$", pathNot: "^src/(index|app)\\.ts$" },
			to: { path: "^src/[^/]+/" },
		},
		{
			name: "nothing-imports-the-entry",
			comment: "The entry composes everything; nothing below it imports it (the Worker entry imports the app).",
			severity: "error",
			from: { pathNot: "^src/index\\.ts$" },
			to: { path: "^src/(index|app)\\.ts$" },
		},
		{
			name: "routes-are-mounted-only-by-the-app",
			comment:
				"Routes and pages are the top of a capability: only src/app.ts mounts them (and a folder's routes.ts its own *-routes files), nothing calls into them.",
			severity: "error",
			from: { path: "^src/", pathNot: "^src/app\\.ts$|^src/[^/]+/routes\\.tsx?$" },
			to: { path: "^src/[^/]+/[a-z-]*routes\\.tsx?$" },
		},
		{
			name: "a-folder-mounts-only-its-own-routes",
			comment:
				"A folder's routes.ts may mount the *-routes files beside it (the console's session and floor routes), no other folder's.",
			severity: "error",
			from: { path: "^src/([^/]+)/routes\\.tsx?$" },
			to: { path: "^src/[^/]+/[a-z-]*routes\\.tsx?$", pathNot: "^src/$1/[a-z-]+-routes\\.tsx?$" },
		},
		{
			name: "dev-tools-only-from-the-entry",
			comment:
				"src/dev-tools/ measures the Worker from outside: only src/index.ts wraps the Worker with it, so no capability depends on it.",
			severity: "error",
			from: { path: "^src/", pathNot: "^src/(index\\.ts$|dev-tools/)" },
			to: { path: "^src/dev-tools/" },
		},
		{
			name: "dev-tools-know-no-capability",
			comment: "src/dev-tools/ wraps bindings and handlers whatever they are: it imports only leaves.",
			severity: "error",
			from: { path: "^src/dev-tools/" },
			to: { path: "^src/[^/]+/", pathNot: "^src/dev-tools/" },
		},
		{
			name: "webhooks-tables-through-their-store",
			comment:
				"Other capabilities reach the webhooks' tables only through src/webhooks/store.ts; the files per table family behind it are the folder's own.",
			severity: "error",
			from: { path: "^src/", pathNot: "^src/webhooks/" },
			to: { path: "^src/webhooks/[a-z]+-store\\.ts$" },
		},
		...capabilityRules,
	],
	options: {
		doNotFollow: { path: "node_modules" },
		// Type-only imports count: a type from above is an upward dependency too.
		tsPreCompilationDeps: true,
		tsConfig: { fileName: "tsconfig.json" },
		exclude: { path: "\\.d\\.ts$" },
	},
};
