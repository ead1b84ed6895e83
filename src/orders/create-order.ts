/**
 * Creating an order: the outbound URLs' rules, each uploaded file checked at its item's size, the
 * order priced, and the first create told apart from a repeat of it. The route only parses and answers.
 */
import type { Owner } from "../accounts/owner.ts";
import type { SandboxProgress } from "../accounts/store.ts";
import { shipToWarnings } from "../addresses/ship-to-warnings.ts";
import { isolateCatalog } from "../catalog/cache.ts";
import { allowsLocalUrls } from "../config.ts";
import { databaseOf } from "../databases.ts";
import { completeFraming } from "../framing/spec.ts";
import { allOf, known, readTogether } from "../http/batched-read.ts";
import { outboundUrlProblem } from "../http/outbound-url.ts";
import { newId, sha256Hex } from "../ids.ts";
import { log } from "../log.ts";
import { printFileNow } from "../print-files/inspection.ts";
import { expiredSinceChecked } from "../print-files/retention.ts";
import { ownedPrintFileRead, type PrintFileRow } from "../print-files/store.ts";
import { type Problem, type Refusal, refusal } from "../problem.ts";
import { type PricingFacts, piecesFactsWith, pricingFactsRead } from "../quotes/facts.ts";
import type { Quote } from "../quotes/schema.ts";
import { ownedQuoteRead } from "../quotes/store.ts";
import { chargeQuote, type OrderPricing, type PieceToMatch, priceOrder, reprintCosts } from "./costs.ts";
import { orderMachine } from "./machine.ts";
import type { CreatedOrder } from "./move-outcome.ts";
import { checkedUpload, type UploadCheck } from "./order-files.ts";
import { type ItemRow, newOrderRow, type StoredOrder } from "./rows.ts";
import { type CreateOrderInput, canonicalOrderRequest } from "./schema.ts";
import { DuplicateExternalId, findOrderByExternalId, insertOrder } from "./store.ts";

/**
 * What a create came to: a new order, with the print files its create checked (its machine takes
 * them as they are), or the order an earlier create with the same external_id and content made.
 */
export type OrderCreated =
	| { ok: true; order: StoredOrder; replayed: false; files: PrintFileRow[] }
	| { ok: true; order: StoredOrder; replayed: true };

/** What makes an order a claim's reprint: the order it reprints, the claim, and the id the claim gave it. */
/**
 * Whose order is created, and what of the account's settings a new order keeps: its edit window, and
 * for a test order how the sandbox moves it on (automatic when not told).
 */
export type OrderOwner = Owner & { editWindowMinutes: number; sandboxProgress?: SandboxProgress };

export type ReprintOf = { of: string; claimId: string; orderId: string };

/**
 * Creates `owner`'s order from `input`, or answers a repeat with the first order; or why not: what is
 * refused in the request, or `idempotency_key_reused` for an external_id used with other content.
 */
export async function createOrder(
	env: Env,
	owner: OrderOwner,
	input: CreateOrderInput,
): Promise<OrderCreated | Refusal> {
	const hashed = await checkedRequestHash(env, input);
	if (!hashed.ok) return hashed;
	const requestHash = hashed.hash;
	const made = await storeNewOrder(env, owner, input, requestHash);
	if (!(made instanceof DuplicateExternalId) && made.ok) {
		return { ok: true, order: made.order, replayed: false, files: made.files };
	}
	// Refused, or the external_id is taken. A repeat is answered as the first order was, even if its
	// file or quote would be refused today; the unique index, not an earlier read, decides which create
	// was first.
	const first = await findOrderByExternalId(
		databaseOf(env, owner.accountId),
		owner,
		input.external_id,
		env.PRINT_FILES,
	);
	if (first === null) {
		// The index found the external_id taken, yet no order has it: not a refusal, a failure.
		if (made instanceof DuplicateExternalId) throw made;
		return made;
	}
	if (first.order.request_hash !== requestHash) {
		return refusal(
			"idempotency_key_reused",
			"external_id",
			`external_id "${first.order.external_id}" is already used by order ${first.order.id} with different content.`,
		);
	}
	return { ok: true, order: first, replayed: true };
}

/**
 * Wakes a new order's machine, which validates it. Nobody waits for this: should it fail, the cron's
 * sweep starts orders left in `received`, so the failure is only logged.
 */
export async function startOrder(env: Env, created: CreatedOrder, requestId: string): Promise<void> {
	const orderId = created.order.order.id;
	try {
		await orderMachine(env, orderId).begin(orderId, created);
	} catch (error) {
		log.error("order.start_failed", { request_id: requestId, order_id: orderId, message: String(error) });
	}
}

/** A new order ready to write (not written): its row, items and no shipments, and the files its create checked. */
export type PreparedOrder = { order: StoredOrder; files: PrintFileRow[] };

/**
 * A claim's reprint of the units `input` names, ready to write in its decision's batch: checked and
 * priced as a create is, charged nothing, under the id the claim gave it; or the create's refusal.
 */
export async function prepareReprintOrder(
	env: Env,
	owner: OrderOwner,
	input: CreateOrderInput,
	reprint: ReprintOf,
): Promise<({ ok: true } & PreparedOrder) | Refusal> {
	const hashed = await checkedRequestHash(env, input);
	if (!hashed.ok) return hashed;
	return prepareOrder(env, owner, input, hashed.hash, reprint, new Date());
}

/**
 * A create's checks without the write: the order `input` would make, checked and priced exactly as
 * `createOrder` checks and prices it, or its refusal. Nothing is stored (a dry run of a create).
 */
export async function checkNewOrder(
	env: Env,
	owner: OrderOwner,
	input: CreateOrderInput,
): Promise<({ ok: true; requestHash: string } & PreparedOrder) | Refusal> {
	const hashed = await checkedRequestHash(env, input);
	if (!hashed.ok) return hashed;
	const prepared = await prepareOrder(env, owner, input, hashed.hash, undefined, new Date());
	return prepared.ok ? { ...prepared, requestHash: hashed.hash } : prepared;
}

/** The request's hash (what tells a repeat from a new order), or the refusal of an address the outbound rules refuse. */
async function checkedRequestHash(env: Env, input: CreateOrderInput): Promise<{ ok: true; hash: string } | Refusal> {
	const addressProblem = outboundUrlsProblem(env, input);
	if (addressProblem !== null) return { ok: false, ...addressProblem };
	return { ok: true, hash: await sha256Hex(canonicalOrderRequest(input)) };
}

/** The order written, or why not: a refusal, or the external_id found taken by the unique index. */
async function storeNewOrder(
	env: Env,
	owner: OrderOwner,
	input: CreateOrderInput,
	requestHash: string,
): Promise<{ ok: true; order: StoredOrder; files: PrintFileRow[] } | Refusal | DuplicateExternalId> {
	const now = new Date();
	const prepared = await prepareOrder(env, owner, input, requestHash, undefined, now);
	if (!prepared.ok) return prepared;
	const { order, items } = prepared.order;
	try {
		await insertOrder(databaseOf(env, owner.accountId), order, items, now);
	} catch (error) {
		if (error instanceof DuplicateExternalId) return error;
		const expired = await expiredMeanwhile(env, owner, items);
		if (expired === null) throw error;
		return expired;
	}
	return prepared;
}

/** The new order's rows, checked and priced, or the refusal. */
async function prepareOrder(
	env: Env,
	owner: OrderOwner,
	input: CreateOrderInput,
	requestHash: string,
	reprint: ReprintOf | undefined,
	now: Date,
): Promise<({ ok: true } & PreparedOrder) | Refusal> {
	const orderId = reprint?.orderId ?? newId("ord");
	const prepared = await prepareItems(env, owner, input, orderId, now);
	if (!prepared.ok) return prepared;
	const { items, pricing, files } = prepared;
	const order = newOrderRow({
		id: orderId,
		accountId: owner.accountId,
		mode: owner.mode,
		externalId: input.external_id,
		requestHash,
		shipTo: input.ship_to,
		shipToWarnings: shipToWarnings(input.ship_to, pricing.shippingMethod),
		callbackUrl: input.callback_url ?? null,
		giftMessage: input.gift_message ?? null,
		shippingMethod: pricing.shippingMethod,
		quoteId: input.quote_id ?? null,
		dutyTerms: pricing.terms,
		// A reprint is charged nothing; its items keep their prices, for what the floor makes.
		costs: reprint === undefined || pricing.costs === null ? pricing.costs : reprintCosts(pricing.costs),
		metadata: input.metadata ?? {},
		editWindowMinutes: owner.editWindowMinutes,
		sandboxProgress: owner.sandboxProgress,
		now,
		...(reprint === undefined ? {} : { reprint: { of: reprint.of, claimId: reprint.claimId } }),
	});
	return { ok: true, order: { order, items, shipments: [] }, files };
}

/**
 * After the order's write failed: the refusal of the first item whose file the retention sweep expired
 * between its check and the write (the database refused the items), or null when no file expired.
 */
async function expiredMeanwhile(env: Env, owner: Owner, items: ReadonlyArray<ItemRow>): Promise<Refusal | null> {
	const uses = items.flatMap((item) =>
		item.print_file_id === null ? [] : [{ fileId: item.print_file_id, field: itemFileField(item) }],
	);
	return expiredSinceChecked(databaseOf(env, owner.accountId), owner.accountId, uses);
}

function itemFileField(item: Pick<ItemRow, "position">): string {
	return `items[${item.position}].print_file_id`;
}

/**
 * The first address of the request the service may not call, checked here rather than in the schema
 * because what is allowed depends on the environment (loopback in development).
 */
function outboundUrlsProblem(env: Env, input: CreateOrderInput): Problem | null {
	const options = { allowLocal: allowsLocalUrls(env) };
	const addresses = [
		{ field: "callback_url", url: input.callback_url },
		...input.items.map((item, index) => ({ field: `items[${index}].print_file_url`, url: item.print_file_url })),
	];
	for (const { field, url } of addresses) {
		const message = url === undefined ? null : outboundUrlProblem(url, options);
		if (message !== null) return { code: "url_not_allowed", field, message };
	}
	return null;
}

/**
 * The new order's items and what it costs: each uploaded file checked at its item's size and fit
 * (else a refusal on the item's file field), and the order priced by its quote or the book in force
 * (else a refusal on `quote_id` or `shipping_method`). Every file row and the quote or the pricing
 * facts are read in one D1 batch, and the files' objects in R2 are asked about side by side with it.
 */
async function prepareItems(
	env: Env,
	owner: Owner,
	input: CreateOrderInput,
	orderId: string,
	now: Date,
): Promise<{ ok: true; items: ItemRow[]; pricing: OrderPricing; files: PrintFileRow[] } | Refusal> {
	// Each item with its complete specification, size and quantity: what is checked, priced and stored.
	const entries = input.items.map((item) => ({
		item,
		piece: { ...completeFraming(item), width_in: item.width_in, height_in: item.height_in, quantity: item.quantity },
	}));
	const quoteId = input.quote_id;
	const reading = readTogether(databaseOf(env, owner.accountId), {
		files: allOf(
			entries.map(({ item }) =>
				item.print_file_id === undefined
					? known(null)
					: ownedPrintFileRead(databaseOf(env, owner.accountId), owner, item.print_file_id),
			),
		),
		facts:
			quoteId === undefined ? pricingFactsRead(databaseOf(env, owner.accountId), owner.accountId, now) : known(null),
		quote: quoteId === undefined ? known(null) : ownedQuoteRead(databaseOf(env, owner.accountId), owner, quoteId),
	});
	const [snapshot, read, files] = await Promise.all([
		quoteId === undefined ? isolateCatalog.get(databaseOf(env, owner.accountId)) : null,
		reading,
		// Each file as it is now, its row from the batch above (R2 is asked about it meanwhile).
		Promise.all(
			entries.map(({ item }, index) => {
				if (item.print_file_id === undefined) return null;
				const row = reading.then((values) => values.files[index] ?? null);
				return printFileNow(env, { owner, id: item.print_file_id, row });
			}),
		),
	]);
	const checks = entries.map(({ item, piece }, index) => {
		if (item.print_file_id === undefined) return null;
		return checkedUpload(files[index] ?? null, item.print_file_id, piece, `items[${index}].print_file_id`);
	});
	// A file's refusal comes before the price's, the first item's first.
	const uploads: (UploadCheck | null)[] = [];
	for (const check of checks) {
		if (check !== null && !check.ok) return check;
		uploads.push(check);
	}
	const facts = snapshot === null || read.facts === null ? null : piecesFactsWith(snapshot, read.facts);
	const priced = pricingOf(
		input,
		entries.map(({ piece }) => piece),
		{ facts, quote: read.quote },
		now,
	);
	if (!priced.ok) return priced;
	const { pricing } = priced;
	const items = entries.map(({ item, piece }, index): ItemRow => {
		const checked = uploads[index] ?? null;
		return {
			id: newId("itm"),
			order_id: orderId,
			position: index,
			print_file_id: item.print_file_id ?? null,
			print_file_url: item.print_file_url ?? null,
			...piece,
			effective_dpi: checked?.effectiveDpi ?? null,
			cropped_percent: checked?.croppedPercent ?? null,
			warnings: checked?.warnings ?? [],
			priced: pricing.items[index] ?? null,
			declared_value: pricing.declared[index] ?? null,
		};
	});
	return { ok: true, items, pricing, files: uploads.flatMap((checked) => (checked === null ? [] : [checked.file])) };
}

/** The order's method and charges: exactly its quote's when it names one, else the book in force now. */
function pricingOf(
	input: CreateOrderInput,
	pieces: PieceToMatch[],
	read: { facts: PricingFacts | null; quote: Quote | null },
	now: Date,
): { ok: true; pricing: OrderPricing } | Refusal {
	const requested = input.shipping_method ?? null;
	const border = {
		region: input.ship_to.state ?? null,
		sent: input.items.map((item) => item.declared_value ?? null),
	};
	if (input.quote_id !== undefined) {
		if (read.quote === null)
			return refusal("unknown_quote", "quote_id", `No quote ${input.quote_id} in this account and mode.`);
		return chargeQuote(read.quote, pieces, input.ship_to.country, requested, now, {
			terms: input.duty_terms ?? null,
			...border,
		});
	}
	if (read.facts === null) throw new Error("an order without a quote was priced without the book");
	return priceOrder(input.items, input.ship_to.country, requested, read.facts, {
		terms: input.duty_terms ?? read.facts.billing.duty_terms,
		...border,
	});
}
