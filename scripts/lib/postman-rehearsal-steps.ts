/**
 * The partner's rehearsal run, as data: each stage of the run (a folder of the collection) and each
 * request in it, with what it sends, what it keeps for the next request and what it checks; and what
 * the run leaves out, with why (`LEFT_OUT`): what would change a setting the partner relies on or
 * send a request out of the service. postman-rehearsal.ts builds the collection from it.
 */
/** The file the run uploads, by its path from newman's working directory (`--working-dir`). */
export const REHEARSAL_PRINT_FILE = "print.png";

/** Changes to the document's example body: values set and keys removed, by dotted path (`items.0.width_in`). */
export type BodyEdits = { set?: Readonly<Record<string, unknown>>; remove?: readonly string[] };

/** One request of the run. */
export type RehearsalStep = {
	/** Unique: the name a retry asks Postman to run again. */
	name: string;
	/** `POST /v1/orders`, as the document keys it. */
	operation: string;
	status: number;
	pathValues?: Readonly<Record<string, string>>;
	queryValues?: Readonly<Record<string, string>>;
	body?: BodyEdits;
	file?: string;
	url?: string;
	/** Lines run before the request is sent. */
	prerequest?: string[];
	/** Collection variables set from the answer: name → a JavaScript expression over `body`. */
	keep?: Readonly<Record<string, string>>;
	/** Assertions on the answer, once it is the last one: title → a chai expression over `body`. */
	checks?: Readonly<Record<string, string>>;
	/** Sends the request again (at most `tries` times, `waitMs` apart) until `done`, an expression over `body`. */
	until?: { done: string; tries: number; waitMs: number };
};

/** A stage of the run: a folder of the collection. */
export type RehearsalStage = { name: string; description: string; steps: RehearsalStep[] };

/** The piece the run quotes, orders and previews: 8 × 10 in, 300 DPI with the 2400 × 3000 px sample file. */
const PIECE = {
	"items.0.print_file_id": "{{print_file_id}}",
	"items.0.width_in": 8,
	"items.0.height_in": 10,
} as const;
/** The recipient the run changes its order to. */
const NEW_RECIPIENT = {
	name: "Grace Hopper",
	address1: "88 Commercial Street",
	city: "Portland",
	state: "ME",
	zip: "04101",
	country: "US",
};
const ANSWER_IS = (key: string) => `pm.collectionVariables.get("${key}")`;

/** The run, in order. */
export const REHEARSAL: readonly RehearsalStage[] = [
	{
		name: "1. Catalog and prices",
		description: "What can be ordered and what it costs; the first request stops the run unless the key is a test key.",
		steps: [
			{ name: "Health", operation: "GET /v1/health", status: 200 },
			{ name: "Catalog", operation: "GET /v1/catalog", status: 200 },
			{ name: "Price book", operation: "GET /v1/price-book", status: 200 },
			{ name: "Exchange rates", operation: "GET /v1/exchange-rates", status: 200 },
			{ name: "Landed-cost table", operation: "GET /v1/landed-cost-tables", status: 200 },
			{ name: "Check an address", operation: "POST /v1/addresses/check", status: 200 },
		],
	},
	{
		name: "2. A print file",
		description: `An upload URL, the bytes of \`${REHEARSAL_PRINT_FILE}\` PUT to it with its upload_headers, then the file read until it is ready and its thumbnail made.`,
		steps: [
			{
				name: "Create a print file",
				operation: "POST /v1/print-files",
				status: 201,
				body: { set: { filename: REHEARSAL_PRINT_FILE, content_type: "image/png" }, remove: ["size_bytes"] },
				keep: {
					print_file_id: "body.id",
					upload_url: "body.upload_url",
					upload_headers: "JSON.stringify(body.upload_headers)",
				},
			},
			{
				name: "Upload the file's bytes",
				operation: "PUT /v1/uploads/{id}",
				status: 200,
				url: "{{upload_url}}",
				file: REHEARSAL_PRINT_FILE,
				prerequest: [
					"// The headers the upload URL was signed with (Content-Type, and If-None-Match for R2's URLs).",
					'const uploadHeaders = JSON.parse(pm.collectionVariables.get("upload_headers") || "{}");',
					"Object.keys(uploadHeaders).forEach(function (name) {",
					"\tpm.request.headers.upsert({ key: name, value: uploadHeaders[name] });",
					"});",
				],
			},
			{
				name: "Wait until the file is ready",
				operation: "GET /v1/print-files/{id}",
				status: 200,
				pathValues: { id: "{{print_file_id}}" },
				until: { done: 'body.status !== "processing" && body.thumbnail.status !== "pending"', tries: 60, waitMs: 500 },
				checks: {
					"the file is ready": 'pm.expect(body.status).to.eql("ready")',
					"its thumbnail is made": 'pm.expect(body.thumbnail.status).to.eql("ready")',
				},
			},
			{
				name: "The file's thumbnail",
				operation: "GET /v1/print-files/{id}/thumbnail",
				status: 200,
				pathValues: { id: "{{print_file_id}}" },
			},
			{
				name: "A framed preview of the piece",
				operation: "POST /v1/previews",
				status: 200,
				body: { set: { print_file_id: "{{print_file_id}}", width_in: 8, height_in: 10 } },
			},
		],
	},
	{
		name: "3. Quote, order, change, cancel",
		description:
			"The sandbox's progress set to manual (the setting the account had is kept, and put back at the end), so the run's orders wait for its own requests. A quote for the piece, an order against it (a new external_id on every run), its recipient changed while it is received, validated by the sandbox's control, read by id, by external_id and in the list, its item changed in production (before the floor starts it, so still the partner's to change), the order canceled, and its events.",
		steps: [
			{
				name: "The sandbox's progress",
				operation: "GET /v1/sandbox/settings",
				status: 200,
				keep: { previous_progress: "body.progress" },
			},
			{
				name: "Test orders wait for the run",
				operation: "PUT /v1/sandbox/settings",
				status: 200,
				body: { set: { progress: "manual" } },
				checks: { "progress is manual": 'pm.expect(body.progress).to.eql("manual")' },
			},
			{
				name: "Quote the piece",
				operation: "POST /v1/quotes",
				status: 201,
				body: { set: PIECE },
				keep: { quote_id: "body.id" },
			},
			{
				name: "Read the quote",
				operation: "GET /v1/quotes/{id}",
				status: 200,
				pathValues: { id: "{{quote_id}}" },
				checks: { "it is the quote just made": `pm.expect(body.id).to.eql(${ANSWER_IS("quote_id")})` },
			},
			{
				name: "Order against the quote",
				operation: "POST /v1/orders",
				status: 201,
				body: {
					set: { ...PIECE, external_id: "postman-{{$guid}}", quote_id: "{{quote_id}}" },
					remove: ["callback_url"],
				},
				keep: { order_id: "body.id", item_id: "body.items[0].id", external_id: "body.external_id" },
				checks: { "it is a test order": 'pm.expect(body.mode).to.eql("test")' },
			},
			{
				name: "Change the recipient",
				operation: "PATCH /v1/orders/{id}",
				status: 200,
				pathValues: { id: "{{order_id}}" },
				body: { set: { ship_to: NEW_RECIPIENT }, remove: ["shipping_method"] },
				checks: {
					"the order ships to the new recipient": `pm.expect(body.ship_to.name).to.eql("${NEW_RECIPIENT.name}")`,
				},
			},
			{
				name: "Validate the order",
				operation: "POST /v1/sandbox/orders/{id}/simulate",
				status: 200,
				pathValues: { id: "{{order_id}}" },
				body: { set: { action: "validate" }, remove: ["reason", "message"] },
				checks: { "it is in production": 'pm.expect(body.status).to.eql("in_production")' },
			},
			{
				name: "Read the order in production",
				operation: "GET /v1/orders/{id}",
				status: 200,
				pathValues: { id: "{{order_id}}" },
				checks: {
					"it has the new recipient": `pm.expect(body.ship_to.name).to.eql("${NEW_RECIPIENT.name}")`,
					"it is in production": 'pm.expect(body.status).to.eql("in_production")',
				},
			},
			{
				name: "Read the order by its external_id",
				operation: "GET /v1/orders/by-external-id/{external_id}",
				status: 200,
				pathValues: { external_id: "{{external_id}}" },
				checks: { "it is the same order": `pm.expect(body.id).to.eql(${ANSWER_IS("order_id")})` },
			},
			{
				name: "List orders",
				operation: "GET /v1/orders",
				status: 200,
				queryValues: {},
				checks: {
					"the order is listed": `pm.expect(body.data.map(function (order) { return order.id; })).to.include(${ANSWER_IS("order_id")})`,
				},
			},
			{
				name: "What can still change",
				operation: "GET /v1/orders/{id}/actions",
				status: 200,
				pathValues: { id: "{{order_id}}" },
			},
			{
				name: "Change the item",
				operation: "PATCH /v1/orders/{id}/items/{item_id}",
				status: 200,
				pathValues: { id: "{{order_id}}", item_id: "{{item_id}}" },
				body: { set: { print_file_id: "{{print_file_id}}", fit: "fit" } },
				checks: { "the item fits the print in the frame": 'pm.expect(body.items[0].fit).to.eql("fit")' },
			},
			{
				name: "The item's framed preview",
				operation: "GET /v1/orders/{id}/items/{item_id}/preview",
				status: 200,
				pathValues: { id: "{{order_id}}", item_id: "{{item_id}}" },
			},
			{
				name: "Cancel the order",
				operation: "POST /v1/orders/{id}/cancel",
				status: 200,
				pathValues: { id: "{{order_id}}" },
				checks: { "the order is canceled": 'pm.expect(body.status).to.eql("canceled")' },
			},
			{
				name: "The order's events",
				operation: "GET /v1/events",
				status: 200,
				queryValues: { order_id: "{{order_id}}" },
				checks: {
					"they include its cancelation":
						'pm.expect(body.data.map(function (event) { return event.type; })).to.include("order.canceled")',
				},
			},
		],
	},
	{
		name: "4. A claim on a delivered order",
		description:
			"A second order (no quote), validated by the sandbox's advance, shipped in one box by the floor and delivered by the carrier (the sandbox's controls), then a claim on it for a wrong item (a reason that needs no photos), read back three ways and refunded by the service team (the sandbox's control).",
		steps: [
			{
				name: "Order a second piece",
				operation: "POST /v1/orders",
				status: 201,
				body: { set: { ...PIECE, external_id: "postman-{{$guid}}" }, remove: ["callback_url", "quote_id"] },
				keep: { second_order_id: "body.id", second_item_id: "body.items[0].id" },
			},
			{
				name: "Advance it: validation",
				operation: "POST /v1/sandbox/orders/{id}/advance",
				status: 200,
				pathValues: { id: "{{second_order_id}}" },
				checks: { "it passed validation": 'pm.expect(body.status).to.eql("in_production")' },
			},
			{
				name: "The floor ships it in one box",
				operation: "POST /v1/sandbox/orders/{id}/simulate",
				status: 200,
				pathValues: { id: "{{second_order_id}}" },
				body: { set: { action: "ship" }, remove: ["reason", "message"] },
				keep: { shipment_id: "body.shipments[0].id" },
				checks: { "it is shipped": 'pm.expect(body.status).to.eql("shipped")' },
			},
			{
				name: "The carrier delivers the box",
				operation: "POST /v1/sandbox/orders/{id}/simulate",
				status: 200,
				pathValues: { id: "{{second_order_id}}" },
				body: { set: { action: "deliver", shipment_id: "{{shipment_id}}" }, remove: ["reason", "message"] },
				checks: { "it is delivered": 'pm.expect(body.status).to.eql("delivered")' },
			},
			{
				name: "Claim a wrong item",
				operation: "POST /v1/orders/{id}/claims",
				status: 201,
				pathValues: { id: "{{second_order_id}}" },
				body: {
					set: {
						reason: "wrong_item",
						"items.0.item_id": "{{second_item_id}}",
						description: "A different print arrived in the frame.",
					},
					remove: ["photo_file_ids"],
				},
				keep: { claim_id: "body.id" },
			},
			{
				name: "The order's claims",
				operation: "GET /v1/orders/{id}/claims",
				status: 200,
				pathValues: { id: "{{second_order_id}}" },
				checks: {
					"the claim is listed": `pm.expect(body.data.map(function (claim) { return claim.id; })).to.include(${ANSWER_IS("claim_id")})`,
				},
			},
			{ name: "Read the claim", operation: "GET /v1/claims/{id}", status: 200, pathValues: { id: "{{claim_id}}" } },
			{
				name: "The service team refunds the claim",
				operation: "POST /v1/sandbox/claims/{id}/simulate",
				status: 200,
				pathValues: { id: "{{claim_id}}" },
				body: { set: { message: "Sorry: a refund is on its way." } },
				checks: { "it is approved with a refund": 'pm.expect(body.resolution.remedy).to.eql("refund")' },
			},
			{ name: "List claims", operation: "GET /v1/claims", status: 200, queryValues: {} },
		],
	},
	{
		name: "5. A webhook endpoint",
		description:
			"An endpoint of the key's mode on example.com, subscribed to claim.approved only (no step of the run sends one), read, paused, resumed and deleted: nothing is sent to it.",
		steps: [
			{
				name: "Register an endpoint",
				operation: "POST /v1/webhook-endpoints",
				status: 201,
				body: { set: { url: "https://example.com/hooks/{{$guid}}", events: ["claim.approved"] } },
				keep: { endpoint_id: "body.id" },
				checks: { "it is the test mode's": 'pm.expect(body.mode).to.eql("test")' },
			},
			{ name: "List endpoints", operation: "GET /v1/webhook-endpoints", status: 200 },
			{
				name: "Read the endpoint",
				operation: "GET /v1/webhook-endpoints/{id}",
				status: 200,
				pathValues: { id: "{{endpoint_id}}" },
			},
			{
				name: "Pause the endpoint",
				operation: "POST /v1/webhook-endpoints/{id}/pause",
				status: 200,
				pathValues: { id: "{{endpoint_id}}" },
				checks: { "it is paused": "pm.expect(body.paused_at).to.be.a('string')" },
			},
			{
				name: "Resume the endpoint",
				operation: "POST /v1/webhook-endpoints/{id}/resume",
				status: 200,
				pathValues: { id: "{{endpoint_id}}" },
				checks: { "it receives again": "pm.expect(body.paused_at).to.eql(null)" },
			},
			{
				name: "Delete the endpoint",
				operation: "DELETE /v1/webhook-endpoints/{id}",
				status: 204,
				pathValues: { id: "{{endpoint_id}}" },
			},
		],
	},
	{
		name: "6. Brand profile, billing, print settings and statement",
		description:
			"The key's mode's brand profile (a test key's never changes the live one), the account's billing and print settings (each shared by both modes, so sent back unchanged), then this month's statement of the mode.",
		steps: [
			{
				name: "Save the brand profile",
				operation: "PUT /v1/branding",
				status: 200,
				body: { remove: ["logo_print_file_id"] },
			},
			{ name: "Read the brand profile", operation: "GET /v1/branding", status: 200 },
			{
				name: "The account's billing",
				operation: "GET /v1/account/billing",
				status: 200,
				keep: { duty_terms: "body.duty_terms" },
			},
			{
				name: "The account's duty terms as they were",
				operation: "PATCH /v1/account/billing",
				status: 200,
				body: { set: { duty_terms: "{{duty_terms}}" }, remove: ["tax_country", "tax_id"] },
				checks: { "the duty terms are kept": `pm.expect(body.duty_terms).to.eql(${ANSWER_IS("duty_terms")})` },
			},
			{
				name: "The account's print settings",
				operation: "GET /v1/account/print-settings",
				status: 200,
				keep: { cmyk_files: "body.cmyk_files" },
			},
			{
				name: "The account's choice for CMYK files as it was",
				operation: "PATCH /v1/account/print-settings",
				status: 200,
				body: { set: { cmyk_files: "{{cmyk_files}}" } },
				checks: { "the choice is kept": `pm.expect(body.cmyk_files).to.eql(${ANSWER_IS("cmyk_files")})` },
			},
			{
				name: "This month's statement",
				operation: "GET /v1/statements/{month}",
				status: 200,
				pathValues: { month: "{{month}}" },
				prerequest: ['pm.collectionVariables.set("month", new Date().toISOString().slice(0, 7));'],
			},
			{
				name: "The sandbox's progress as it was",
				operation: "PUT /v1/sandbox/settings",
				status: 200,
				body: { set: { progress: "{{previous_progress}}" } },
			},
		],
	},
];

/** The partner operations the run does not send, and why. */
export const LEFT_OUT: Readonly<Record<string, string>> = {
	"POST /v1/webhook-secret/rotate":
		"issues a new webhook secret for the key's mode, shown once: the partner's receiver would refuse every webhook until it is given the new one.",
	"DELETE /v1/branding":
		"throws away the mode's brand profile, which the partner set up and a rehearsal must leave as it was.",
	"POST /v1/webhook-endpoints/{id}/test":
		"sends a ping to the endpoint's URL, a host outside the service (example.com in the run): a run must not depend on it.",
	"POST /v1/sandbox/events":
		"sends a sample event to the mode's webhook endpoints, hosts outside the service: a run must not depend on them, nor send to the partner's own receivers.",
	"POST /v1/events/{id}/redeliver":
		"needs an event that was sent to a receiver; the run's orders have no callback_url and its endpoint receives none, so nothing leaves the service.",
};
