/**
 * Every error the API answers with: the error types (each with its HTTP status) and the stable
 * machine codes that refine them; and the codes of why an order is held. Clients switch on `type`; `code`, when present, says which rule
 * refused the request. A code is only ever used with its own type, and the source can only name
 * codes listed here. The warnings, which refuse nothing, are warning-catalog.ts's. docs/errors.md
 * documents each one (a test holds the two in step).
 * A leaf: it imports nothing.
 */

/** HTTP status of each error type: the nine the API documents, and no others. */
export const ERROR_STATUS = {
	bad_request: 400,
	unauthorized: 401,
	forbidden: 403,
	not_found: 404,
	conflict: 409,
	validation_error: 422,
	rate_limited: 429,
	server_error: 500,
	unavailable: 503,
} as const;

export type ErrorType = keyof typeof ERROR_STATUS;

/** Codes of an order's `hold_reason` and of each `hold_details` entry: why validation, or an operator, stopped it. */
export const HOLD_REASONS = [
	"file_resolution_too_low",
	"file_unreadable",
	"file_fetch_failed",
	"unsupported_file_format",
	"cmyk_file",
	"size_not_offered",
	"frame_not_found",
	"mat_not_found",
	"glazing_not_found",
	"paper_not_found",
	"frame_too_small_for_size",
	"operator_hold",
] as const;
export type HoldReason = (typeof HOLD_REASONS)[number];

/** One code: the type it is always sent with, and what the partner does about it. */
type CodeEntry = { type: ErrorType; action: string };

/** The machine codes, each with its type and what the partner does about it. */
export const ERROR_CODES = {
	malformed_json: { type: "bad_request", action: "Send a well-formed JSON body." },
	body_not_object: { type: "bad_request", action: "Send a JSON object, not an array, string or number." },
	field_required: { type: "bad_request", action: "Add the field that `field` names." },
	body_too_large: { type: "bad_request", action: "Send a smaller body: 1 MiB for JSON, 4 MiB for a shipments CSV." },
	unsupported_media_type: {
		type: "bad_request",
		action: "Send JSON with `Content-Type: application/json` (a shipments import: `text/csv`).",
	},
	body_not_utf8: { type: "bad_request", action: "Encode the body as UTF-8." },
	upload_length_required: { type: "bad_request", action: "Send the file's exact size in `Content-Length`." },
	upload_too_large: { type: "bad_request", action: "Print files are at most 512 MiB: send a smaller file." },
	upload_size_mismatch: {
		type: "bad_request",
		action: "Upload the file whose size you declared, or ask for a new upload URL with the right `size_bytes`.",
	},
	upload_incomplete: { type: "bad_request", action: "Send the whole file again to the same upload URL." },
	idempotency_key_malformed: {
		type: "bad_request",
		action: "Send 1 to 255 printable ASCII characters in `Idempotency-Key` (a UUID is a good key), or leave it out.",
	},
	api_key_missing: { type: "unauthorized", action: "Send `Authorization: Bearer <API key>`." },
	authorization_not_bearer: {
		type: "unauthorized",
		action: "Use the Bearer scheme: `Authorization: Bearer <API key>`.",
	},
	api_key_malformed: { type: "unauthorized", action: "Send the whole key, as issued: `fps_live_…` or `fps_test_…`." },
	api_key_invalid: { type: "unauthorized", action: "Check the key; ask the service team for a new one if it is lost." },
	api_key_revoked: { type: "unauthorized", action: "Use another key of the account; this one will never work again." },
	api_key_expired: {
		type: "unauthorized",
		action: "Use another key of the account, or have its owner create one; this one has passed its expiry.",
	},
	api_key_refused: {
		type: "forbidden",
		action: "Use a live key: this test key carries a scope test keys may not hold.",
	},
	scope_missing: { type: "forbidden", action: "Use a key with the scope the message names, or ask for one." },
	upload_url_incomplete: { type: "forbidden", action: "Use the upload URL exactly as issued, with its query string." },
	upload_url_signature_invalid: { type: "forbidden", action: "Use the upload URL exactly as issued, unchanged." },
	upload_url_expired: { type: "forbidden", action: "Ask for a new upload URL with `POST /v1/print-files`." },
	sandbox_needs_test_key: {
		type: "forbidden",
		action: "Use the sandbox's controls on test-mode data only, with a `fps_test_` key.",
	},
	route_not_found: { type: "not_found", action: "Check the method and the path against the reference." },
	order_not_found: {
		type: "not_found",
		action: "Check the id, and that the key is of the same mode (live or test) as the order.",
	},
	claim_not_found: {
		type: "not_found",
		action: "Check the id, and that the key is of the same mode (live or test) as the claim.",
	},
	shipment_not_found: {
		type: "not_found",
		action: "Check the shipment id against the order's `shipments` (ops routes).",
	},
	order_item_not_found: { type: "not_found", action: "Use an item id from the order's `items`." },
	no_commercial_invoice: {
		type: "not_found",
		action:
			"The floor's commercial invoice only: an order that crosses no border (a domestic one, or one not priced yet) ships without one.",
	},
	events_archive_not_found: {
		type: "not_found",
		action: "Nothing of that account and mode was archived for that UTC day; check the day and the mode.",
	},
	thumbnail_unavailable: {
		type: "not_found",
		action: "This file has no thumbnail (`thumbnail.reason` says why); the file itself is unaffected.",
	},
	print_file_not_found: {
		type: "not_found",
		action: "Check the id, and that the key is of the same mode (live or test) as the file.",
	},
	quote_not_found: { type: "not_found", action: "Check the id, and the key's mode; quotes belong to one mode." },
	event_not_found: {
		type: "not_found",
		action:
			"Check the id with `GET /v1/events`; an event older than the retention window (90 days) is archived and no longer found.",
	},
	webhook_endpoint_not_found: { type: "not_found", action: "Check the id with `GET /v1/webhook-endpoints`." },
	brand_profile_not_found: { type: "not_found", action: "Create the profile with `PUT /v1/branding` first." },
	account_not_found: { type: "not_found", action: "Check the account id (admin routes)." },
	account_move_not_found: { type: "not_found", action: "The account was never moved: `POST` its move first." },
	partner_user_not_found: { type: "not_found", action: "Check the user id with `GET /v1/admin/accounts/{id}/users`." },
	invitation_invalid: {
		type: "not_found",
		action: "The invitation link was used, has expired or was withdrawn: ask the account's owner for a new one.",
	},
	api_key_not_found: { type: "not_found", action: "Check the key id (admin routes)." },
	price_book_not_found: { type: "not_found", action: "Ask for a version that exists, or leave `version` out." },
	exchange_rates_not_found: {
		type: "not_found",
		action: "Ask for a version that exists, or a time `at` from the first sheet's effective time on.",
	},
	landed_cost_table_not_found: {
		type: "not_found",
		action: "Ask for a version that exists, or a time `at` from the first table's effective time on.",
	},
	idempotency_key_reused: {
		type: "conflict",
		action:
			"The key was used with other content. On `external_id` (`field` says which): that order exists (its id is in the message): read it, or use a new `external_id` for a new order. On `Idempotency-Key`: the key names another request (the message says which): send a new key for a new request.",
	},
	idempotency_key_in_use: {
		type: "conflict",
		action:
			"A request with this `Idempotency-Key` is still running: wait the seconds in `Retry-After` and send the same request again to get its answer.",
	},
	account_move_under_way: {
		type: "conflict",
		action: "The account is moving to another database: run the same move until it is done, then move it again.",
	},
	account_already_there: { type: "conflict", action: "The account is in that database already: nothing to move." },
	partner_user_exists: {
		type: "conflict",
		action: "This email already has a console user (a user belongs to one account): invite another address.",
	},
	partner_user_revoke_refused: {
		type: "conflict",
		action:
			"An owner cannot revoke themself, and an account keeps at least one owner: another owner revokes you, and the last owner stays until another is invited.",
	},
	sandbox_no_endpoint: {
		type: "conflict",
		action:
			"Add a test webhook endpoint that subscribes to the event type (`POST /v1/webhook-endpoints` with a test key), then send the sample again.",
	},
	order_not_editable: {
		type: "conflict",
		action:
			"The order can no longer change as asked: the message says why and since when. `GET /v1/orders/{id}/actions` says what can still change, and until when.",
	},
	order_in_edit_window: {
		type: "conflict",
		action:
			"Ops keys: the order is in the partner's edit window until its `editable_until` (the message says when): start it, ship it, or print its work tickets after that time.",
	},
	hold_needs_partner_fix: {
		type: "conflict",
		action:
			"Ops keys: this hold is cleared only by the partner's fix of the item (the message says what to change), not by a release; ask the partner, or cancel the order.",
	},
	order_move_refused: {
		type: "conflict",
		action: "The order's status does not allow this move (the message names it); read the order and act on its status.",
	},
	shipment_move_refused: {
		type: "conflict",
		action:
			"Only a shipment in transit is delivered or returned (the message says what it is); read the order's `shipments`.",
	},
	shipment_label_reused: {
		type: "conflict",
		action: "The label is already a shipment of this order with other units (the message names it): use a new label.",
	},
	claim_not_allowed: {
		type: "conflict",
		action:
			"The claimed units are not in a shipment that may be claimed for this reason now (the message says why): lost only when undelivered 5 days after shipping, every other reason within 30 days of delivery.",
	},
	claim_already_resolved: {
		type: "conflict",
		action: "The claim was approved or rejected already (ops routes); read it to see its resolution.",
	},
	print_file_already_uploaded: {
		type: "conflict",
		action: "A file is uploaded once: create a new print file for other bytes.",
	},
	thumbnail_pending: {
		type: "conflict",
		action:
			"The thumbnail is still being made: read the print file's `thumbnail.status` and ask again once it is `ready`.",
	},
	print_file_not_printable: {
		type: "conflict",
		action: "The floor's download only: the bytes are not the ones checked; ask the partner for the file again.",
	},
	invoice_settings_unset: {
		type: "conflict",
		action:
			"The floor's commercial invoice only: the service team sets `SHIP_FROM_ADDRESS` (and `IOSS_NUMBER` for an order under IOSS) first.",
	},

	event_never_sent: { type: "conflict", action: "Nothing to redeliver: the event was recorded, not sent." },
	event_has_no_destination: {
		type: "conflict",
		action: "Register a webhook endpoint (or set the order's `callback_url`) before redelivering.",
	},
	webhook_endpoint_limit: { type: "conflict", action: "Delete an endpoint of this mode before adding another." },
	webhook_endpoint_exists: { type: "conflict", action: "This URL is registered already: use that endpoint." },
	price_book_changed: {
		type: "conflict",
		action: "Another price book was published meanwhile: read the book in force again and make the change there.",
	},
	currency_change_refused: {
		type: "conflict",
		action:
			"The account has ledger entries this month or an open balance in its currency: settle the balance with an adjustment, then change the currency on the first day of a month with no entries yet.",
	},
	invalid_field: { type: "validation_error", action: "Correct the field that `field` names, as the message says." },
	text_not_well_formed: {
		type: "validation_error",
		action: "Send the text whole: it holds half of an emoji or symbol (a lone surrogate).",
	},
	invalid_cursor: { type: "validation_error", action: "Pass `next_cursor` exactly as the previous page returned it." },
	after_not_combinable: {
		type: "validation_error",
		action:
			"`after` reads the event log forward: send it with `type`, `order_id` and `limit` only, or page back with `cursor` without `after`.",
	},
	statement_month_out_of_range: {
		type: "validation_error",
		action: "Ask for a month from 2020-01 to the current month (UTC).",
	},
	url_not_allowed: {
		type: "validation_error",
		action: "Use an absolute public `https` URL without credentials (not an IP in a private range, not localhost).",
	},
	unknown_print_file: {
		type: "validation_error",
		action: "Use the id of a print file of this account and mode, from `POST /v1/print-files`.",
	},
	claim_units_exceeded: {
		type: "validation_error",
		action:
			"Claim at most the shipped units of the item less those already in open or approved claims (the message says how many are left).",
	},
	print_file_not_uploaded: {
		type: "validation_error",
		action: "Upload the file to its `upload_url`, then send again.",
	},
	print_file_expired: {
		type: "validation_error",
		action:
			"The file passed its retention and its bytes were deleted (`GET /v1/print-files/{id}` reads `expired`): upload it again as a new print file and use the new id.",
	},
	file_unreadable: {
		type: "validation_error",
		action: "The file is not a usable image (its `invalid_reason` says why): upload it again, whole.",
	},
	unsupported_file_format: { type: "validation_error", action: "Send a TIFF, PNG or JPEG file." },
	file_resolution_too_low: {
		type: "validation_error",
		action: "Send a file with more pixels, or order a smaller size: at least 150 DPI at the printed size.",
	},
	size_not_offered: {
		type: "validation_error",
		action: "Quote a size the catalog offers: whole inches within `GET /v1/catalog`'s `sizes`.",
	},
	frame_not_found: { type: "validation_error", action: "Quote a frame slug from `GET /v1/catalog`." },
	mat_not_found: { type: "validation_error", action: "Quote a mat slug from `GET /v1/catalog`." },
	glazing_not_found: { type: "validation_error", action: "Quote a glazing slug from `GET /v1/catalog`." },
	paper_not_found: { type: "validation_error", action: "Quote a paper slug from `GET /v1/catalog`." },
	frame_too_small_for_size: {
		type: "validation_error",
		action: "Quote a wider frame, narrower mat borders or a smaller size.",
	},
	piece_not_priced: {
		type: "validation_error",
		action: "The price book or catalog lacks what this piece needs: quote another part, or contact support.",
	},
	unknown_quote: { type: "validation_error", action: "Use a quote of this account and mode, or leave `quote_id` out." },
	quote_not_applicable: {
		type: "validation_error",
		action:
			"The quote expired or was for other items or another country: ask for a new quote, or leave `quote_id` out.",
	},
	shipping_method_not_offered: {
		type: "validation_error",
		action: "Choose one of the methods the message lists for the destination.",
	},
	duty_terms_not_offered: {
		type: "validation_error",
		action:
			'The landed-cost table has no rules for the destination, so the service cannot pay its border charges: send `duty_terms: "dap"`.',
	},
	logo_unusable: {
		type: "validation_error",
		action:
			"Name an uploaded PNG or JPEG print file of this account, small enough for a logo (the message says the limit).",
	},
	price_book_incomplete: { type: "validation_error", action: "Give a rate for every catalog item the message names." },
	effective_at_out_of_range: {
		type: "validation_error",
		action: "Publish from now (at most 5 minutes back) to at most 366 days ahead.",
	},
	landed_cost_table_incomplete: {
		type: "validation_error",
		action:
			"List the origin country among the destinations as domestic (`customs: null`), and give customs to every other.",
	},
	invalid_tax_id: {
		type: "validation_error",
		action: "Send the VAT number of the country in `tax_country` (with or without its prefix), or `null` to remove it.",
	},
	read_only_field: {
		type: "validation_error",
		action: "Send the field as it was read, or leave it out.",
	},
	units_already_shipped: {
		type: "validation_error",
		action: "Ship only units that remain: read the order's `shipments` and `fulfillment`, and name fewer.",
	},
	shipments_csv_invalid: { type: "validation_error", action: "Correct the CSV line the message names." },
	metadata_not_object: {
		type: "validation_error",
		action: "Send `metadata` as a JSON object of keys to strings, or leave it out.",
	},
	metadata_too_many_keys: {
		type: "validation_error",
		action: "Keep at most 20 keys in `metadata`: join related values, or keep the rest in your own records.",
	},
	move_target_unknown: {
		type: "validation_error",
		action: "Name one of the D1 bindings ACCOUNT_DATABASES names in `to` (the message lists them).",
	},
	metadata_key_invalid: {
		type: "validation_error",
		action: "Use keys of 1 to 40 characters of A-Z, a-z, 0-9, `_`, `.` and `-` (the key is in `field`).",
	},
	metadata_value_invalid: {
		type: "validation_error",
		action:
			"Send each value as a string of at most 500 characters without control characters; encode numbers and lists as text.",
	},
	rate_limit_exceeded: { type: "rate_limited", action: "Wait the seconds in `Retry-After`, then retry." },
	order_rate_limit_exceeded: {
		type: "rate_limited",
		action: "Send order creations more slowly: wait the seconds in `Retry-After`, then retry.",
	},
	database_unavailable: { type: "server_error", action: "Retry later; `GET /v1/health` says when it is back." },
	order_archive_unavailable: {
		type: "unavailable",
		action:
			"The order is archived and its record cannot be read right now: wait the seconds in `Retry-After`, then retry.",
	},
	account_moving: {
		type: "unavailable",
		action:
			"The account is moving between databases and its data takes no writes for a few seconds: wait the seconds in `Retry-After`, then send the same request again (nothing was written).",
	},
} as const satisfies Record<string, CodeEntry>;

/** A stable machine code of an error, one of ERROR_CODES. */
export type ErrorCode = keyof typeof ERROR_CODES;

/** Whether `value` is one of the declared error codes. */
export function isErrorCode(value: string): value is ErrorCode {
	return Object.hasOwn(ERROR_CODES, value);
}

/** The codes sent with `type`. */
export function codesOf(type: ErrorType): ErrorCode[] {
	return (Object.keys(ERROR_CODES) as ErrorCode[]).filter((code) => ERROR_CODES[code].type === type);
}
