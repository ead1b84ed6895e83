import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import type { Order } from "../../src/orders/response.ts";
import { GIFT_MESSAGE_MAX_CHARACTERS } from "../../src/orders/schema.ts";
import { api, expectError } from "../helpers.ts";
import { countOrders, createOrder, orderBody, partnerWithFile, postOrder, readOrder } from "./order-helpers.ts";

/** The gift_message column of an order as stored. */
async function storedGiftMessage(orderId: string): Promise<string | null | undefined> {
	const row = await env.DB.prepare("SELECT gift_message FROM orders WHERE id = ?1")
		.bind(orderId)
		.first<{ gift_message: string | null }>();
	return row?.gift_message;
}

/** A create with `giftMessage` that must be accepted: the gift_message the 201 returns. */
async function acceptedMessage(giftMessage: string): Promise<string | null> {
	const { key, file } = await partnerWithFile();
	return (await createOrder(key, orderBody(file, { gift_message: giftMessage }))).gift_message;
}

describe("POST /v1/orders: gift_message is stored and returned", () => {
	it("is on the 201, on GET, by external_id, in the list and in the database", async () => {
		const { key, file } = await partnerWithFile();
		const body = orderBody(file, { gift_message: "Happy birthday, Grace!\nLove, Gran" });
		const created = await createOrder(key, body);
		expect(created.gift_message).toBe("Happy birthday, Grace!\nLove, Gran");
		expect((await readOrder(key, created.id)).gift_message).toBe(created.gift_message);
		const byExternalId = await api(`/v1/orders/by-external-id/${encodeURIComponent(body.external_id)}`, { key });
		expect(((await byExternalId.json()) as Order).gift_message).toBe(created.gift_message);
		const list = (await (await api("/v1/orders", { key })).json()) as { data: Order[] };
		expect(list.data.find((order) => order.id === created.id)?.gift_message).toBe(created.gift_message);
		expect(await storedGiftMessage(created.id)).toBe(created.gift_message);
	});

	it("is null on an order created without one", async () => {
		const { key, file } = await partnerWithFile();
		const created = await createOrder(key, orderBody(file));
		expect(created).toHaveProperty("gift_message", null);
		expect((await readOrder(key, created.id)).gift_message).toBeNull();
		expect(await storedGiftMessage(created.id)).toBeNull();
	});

	it("is trimmed", async () => {
		expect(await acceptedMessage("  \n Congratulations!  \n")).toBe("Congratulations!");
	});

	it("keeps line breaks inside, blank lines included, and turns CRLF into LF", async () => {
		expect(await acceptedMessage("Dear Grace,\r\n\r\nHappy birthday!\r\nGran")).toBe(
			"Dear Grace,\n\nHappy birthday!\nGran",
		);
	});

	it("keeps emoji, accents and other scripts as sent", async () => {
		expect(await acceptedMessage("Félicitations 🎉 おめでとう")).toBe("Félicitations 🎉 おめでとう");
	});
});

describe("POST /v1/orders: gift_message length", () => {
	it(`accepts ${GIFT_MESSAGE_MAX_CHARACTERS} characters`, async () => {
		expect(await acceptedMessage("g".repeat(GIFT_MESSAGE_MAX_CHARACTERS))).toHaveLength(GIFT_MESSAGE_MAX_CHARACTERS);
	});

	it(`refuses ${GIFT_MESSAGE_MAX_CHARACTERS + 1} characters with a 422 on gift_message, and stores nothing`, async () => {
		const { partner, key, file } = await partnerWithFile();
		const body = orderBody(file, { gift_message: "g".repeat(GIFT_MESSAGE_MAX_CHARACTERS + 1) });
		const error = await expectError(await postOrder(key, body), "validation_error", "gift_message");
		expect(error.message).toContain(String(GIFT_MESSAGE_MAX_CHARACTERS));
		expect(await countOrders(partner.account.id, body.external_id)).toBe(0);
	});

	it(`counts an emoji as one character: ${GIFT_MESSAGE_MAX_CHARACTERS} of them (twice as many UTF-16 units) are accepted`, async () => {
		const emoji = "🎁".repeat(GIFT_MESSAGE_MAX_CHARACTERS);
		expect(emoji.length).toBe(2 * GIFT_MESSAGE_MAX_CHARACTERS);
		expect(await acceptedMessage(emoji)).toBe(emoji);
	});

	it(`refuses ${GIFT_MESSAGE_MAX_CHARACTERS + 1} emoji`, async () => {
		const { key, file } = await partnerWithFile();
		const body = orderBody(file, { gift_message: "🎁".repeat(GIFT_MESSAGE_MAX_CHARACTERS + 1) });
		await expectError(await postOrder(key, body), "validation_error", "gift_message");
	});

	it("counts after trimming: the limit plus surrounding spaces is accepted", async () => {
		const message = "g".repeat(GIFT_MESSAGE_MAX_CHARACTERS);
		expect(await acceptedMessage(`   ${message}   `)).toBe(message);
	});

	it("counts a CRLF as one character, as it is stored", async () => {
		const message = `${"g".repeat(GIFT_MESSAGE_MAX_CHARACTERS - 2)}\r\ng`;
		expect(await acceptedMessage(message)).toBe(`${"g".repeat(GIFT_MESSAGE_MAX_CHARACTERS - 2)}\ng`);
	});
});

describe("POST /v1/orders: gift_message rules", () => {
	const refused: Array<{ name: string; value: unknown }> = [
		{ name: "an empty string", value: "" },
		{ name: "only spaces and line breaks", value: "  \r\n \n " },
		{ name: "a tab", value: "Happy\tbirthday" },
		{ name: "a NUL", value: "Happy\u0000birthday" },
		{ name: "a bell", value: "Happy birthday\u0007!" },
		{ name: "an escape sequence", value: "\u001b[31mHappy birthday" },
		{ name: "a DEL", value: "Happy\u007fbirthday" },
		{ name: "a C1 control", value: "Happy\u009bbirthday" },
		// A partner cutting a message to 300 UTF-16 units can split an emoji; stored as UTF-8 it would come back garbled.
		{ name: "half an emoji (a lone high surrogate)", value: "Happy birthday \ud83c" },
		{ name: "a lone low surrogate", value: "Happy \udf81 birthday" },
		{ name: "a number", value: 42 },
		{ name: "an object", value: { text: "Happy birthday" } },
	];
	for (const { name, value } of refused) {
		it(`${name} is a 422 on gift_message, and stores nothing`, async () => {
			const { partner, key, file } = await partnerWithFile();
			const body = orderBody(file, { gift_message: value });
			await expectError(await postOrder(key, body), "validation_error", "gift_message");
			expect(await countOrders(partner.account.id, body.external_id)).toBe(0);
		});
	}
});

describe("POST /v1/orders: gift_message and idempotency", () => {
	it("a repeat with the same gift_message is a 200 replay of the first order, message included", async () => {
		const { key, file } = await partnerWithFile();
		const body = orderBody(file, { gift_message: "Happy birthday!" });
		const first = await createOrder(key, body);
		const replay = await postOrder(key, body);
		expect(replay.status).toBe(200);
		expect(replay.headers.get("Idempotent-Replayed")).toBe("true");
		const replayed = (await replay.json()) as Order;
		expect(replayed.id).toBe(first.id);
		expect(replayed.gift_message).toBe("Happy birthday!");
	});

	it("a repeat with a different gift_message is a 409 on external_id naming the order, which is left as it was", async () => {
		const { partner, key, file } = await partnerWithFile();
		const body = orderBody(file, { gift_message: "Happy birthday!" });
		const first = await createOrder(key, body);
		const error = await expectError(
			await postOrder(key, { ...body, gift_message: "Happy anniversary!" }),
			"conflict",
			"external_id",
		);
		expect(error.message).toContain(first.id);
		expect((await readOrder(key, first.id)).gift_message).toBe("Happy birthday!");
		expect(await countOrders(partner.account.id, body.external_id)).toBe(1);
	});

	it("adding a gift_message to a repeat of an order without one is a 409", async () => {
		const { key, file } = await partnerWithFile();
		const body = orderBody(file);
		await createOrder(key, body);
		await expectError(await postOrder(key, { ...body, gift_message: "Surprise!" }), "conflict", "external_id");
	});

	it("leaving the gift_message out of a repeat of an order with one is a 409", async () => {
		const { key, file } = await partnerWithFile();
		const body = orderBody(file);
		await createOrder(key, { ...body, gift_message: "Surprise!" });
		await expectError(await postOrder(key, body), "conflict", "external_id");
	});

	it("messages that differ only in CRLF and surrounding spaces are the same message: a replay", async () => {
		const { key, file } = await partnerWithFile();
		const body = orderBody(file, { gift_message: "Dear Grace,\nHappy birthday!" });
		const first = await createOrder(key, body);
		const replay = await postOrder(key, { ...body, gift_message: "  Dear Grace,\r\nHappy birthday!\r\n" });
		expect(replay.status).toBe(200);
		expect(replay.headers.get("Idempotent-Replayed")).toBe("true");
		expect(((await replay.json()) as Order).id).toBe(first.id);
	});

	it("a message that differs only in case is a different message: a 409", async () => {
		const { key, file } = await partnerWithFile();
		const body = orderBody(file, { gift_message: "Happy birthday!" });
		await createOrder(key, body);
		await expectError(await postOrder(key, { ...body, gift_message: "happy birthday!" }), "conflict", "external_id");
	});
});
