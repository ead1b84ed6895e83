/**
 * Placing orders from the partner console: one order by form (the file stored, the piece quoted and
 * drawn, then ordered through the API's create) and many by CSV (a template, a dry run that creates
 * nothing, a create of exactly the previewed file). Attackers: another account's file or quote is not
 * found, a missing or forged form token is refused, a viewer cannot place orders.
 */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { storeFormUpload } from "../../src/print-files/form-upload.ts";
import { api, createPartner } from "../helpers.ts";
import { pngClaiming, sharpPng, smallPng } from "../print-files/upload-helpers.ts";
import { type ConsoleUser, post, postMultipart, signedInUser } from "./console-client.ts";

const RECIPIENT = {
	name: "Ada Lovelace",
	address1: "350 Fifth Avenue",
	city: "New York",
	state: "NY",
	zip: "10118",
	country: "US",
	shipping_method: "standard",
};

/** The order form's fields for a 16 × 20 in walnut frame with a mat. */
function orderForm(externalId: string, file: Uint8Array = pngClaiming(4800, 6000)): FormData {
	const form = new FormData();
	form.set("file", new File([file], "harbour.png", { type: "image/png" }));
	const fields = {
		external_id: externalId,
		width_in: "16",
		height_in: "20",
		frame: "walnut-flat-125",
		mat: "museum-rag-white-4ply",
		glazing: "museum-acrylic",
		...RECIPIENT,
	};
	for (const [name, value] of Object.entries(fields)) form.set(name, value);
	return form;
}

/** The hidden fields of the quoted page's order form. */
function hiddenFields(html: string): Record<string, string> {
	const form = html.slice(html.indexOf('action="/partner/place/order'));
	const fields: Record<string, string> = {};
	for (const match of form.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)"/g)) {
		const [, name, value] = match;
		if (name !== undefined && value !== undefined) fields[name] = value.replaceAll("&amp;", "&");
	}
	return fields;
}

/** The partner's orders in a mode, through the API. */
async function ordersOf(
	user: ConsoleUser,
	mode: "live" | "test" = "live",
): Promise<{ id: string; external_id: string; status: string }[]> {
	const key = mode === "live" ? user.partner.keys.live.key : user.partner.keys.test.key;
	const response = await api("/v1/orders?limit=100", { key });
	expect(response.status).toBe(200);
	return ((await response.json()) as { data: { id: string; external_id: string; status: string }[] }).data;
}

/** A print file stored for the account in `mode`. */
async function storedFile(partnerAccountId: string, png: Uint8Array, mode: "live" | "test" = "live"): Promise<string> {
	const stored = await storeFormUpload(
		env,
		{ accountId: partnerAccountId, mode },
		new File([png], "p.png", { type: "image/png" }),
	);
	if (!stored.ok) throw new Error(stored.message);
	return stored.file.id;
}

function csvFile(text: string): FormData {
	const form = new FormData();
	form.set("file", new File([text], "orders.csv", { type: "text/csv" }));
	return form;
}

const HEADER =
	"external_id,print_file_id,print_file_url,width_in,height_in,frame,mat,glazing,quantity,ship_to_name,ship_to_address1,ship_to_city,ship_to_state,ship_to_zip,ship_to_country,shipping_method";

function row(fields: {
	id: string;
	file?: string;
	url?: string;
	size?: string;
	frame?: string;
	name?: string;
}): string {
	const [w, h] = (fields.size ?? "8x10").split("x");
	return [
		fields.id,
		fields.file ?? "",
		fields.url ?? "",
		w,
		h,
		fields.frame ?? "walnut-flat-125",
		"",
		"",
		"1",
		fields.name ?? "Ada Lovelace",
		"350 Fifth Avenue",
		"New York",
		"NY",
		"10118",
		"US",
		"standard",
	].join(",");
}

/** The confirm form's carried file on a dry run's page. */
function carriedOf(html: string): { content: string; mark: string } {
	const content = /name="content" value="([^"]+)"/.exec(html)?.[1] ?? "";
	const mark = /name="mark" value="([^"]+)"/.exec(html)?.[1] ?? "";
	return { content, mark };
}

describe("one order by form", () => {
	it("stores the file, shows the framed preview and the quote, then places the order as quoted under the partner's external id", async () => {
		const user = await signedInUser("support");
		const quoted = await user.upload("/partner/place/form", orderForm("PO-FORM-1"));
		expect(quoted.status).toBe(200);
		// The page's policy lets the preview load from the console's own address.
		expect(quoted.headers.get("Content-Security-Policy")).toContain("img-src 'self'");
		const html = await quoted.text();
		expect(html).toContain("Check and place the order");
		expect(html).toMatch(/\/partner\/place\/preview\.png\?print_file_id=pf_/);
		expect(html).toMatch(/Total<\/dt><dd>\$[\d,]+\.\d\d/);
		expect(await ordersOf(user)).toEqual([]);
		const fields = hiddenFields(html);
		expect(fields.quote_id).toMatch(/^quo_/);
		const placed = await user.post("/partner/place/order", fields);
		expect(placed.status).toBe(303);
		const location = placed.headers.get("Location") ?? "";
		expect(location).toMatch(/^\/partner\/place\?done=ordered&order=ord_/);
		const orders = await ordersOf(user);
		expect(orders.map((order) => order.external_id)).toEqual(["PO-FORM-1"]);
		const done = await (await user.get(location)).text();
		expect(done).toContain('role="status"');
		expect(done).toContain("The order is placed");
		// The same post again is the same order, as the API answers a repeat.
		const again = await user.post("/partner/place/order", fields);
		expect(again.headers.get("Location")).toMatch(/done=already/);
		expect(await ordersOf(user)).toHaveLength(1);
	});

	it("draws the piece's framed preview from the owner's file (a grey opening until its thumbnail is made), and another account's file is not found", async () => {
		const user = await signedInUser("support");
		const stranger = await createPartner("Other Gallery");
		const own = await storedFile(user.partner.account.id, smallPng(48, 60));
		const theirs = await storedFile(stranger.account.id, smallPng(48, 60));
		const query = "width_in=8&height_in=10&frame=walnut-flat-125";
		const preview = await user.get(`/partner/place/preview.png?print_file_id=${own}&${query}`);
		// Drawn with the file's thumbnail, or with a grey opening while the thumbnail is being made.
		expect(preview.status).toBe(200);
		expect(preview.headers.get("Content-Type")).toBe("image/png");
		const foreign = await user.get(`/partner/place/preview.png?print_file_id=${theirs}&${query}`);
		expect(foreign.status).toBe(404);
	});

	it("re-renders the form with the API's words when a field is refused, storing nothing", async () => {
		const user = await signedInUser("developer");
		const form = orderForm("PO-FORM-2");
		form.set("country", "XX");
		const refused = await user.upload("/partner/place/form", form);
		expect(refused.status).toBe(422);
		const html = await refused.text();
		expect(html).toContain('role="alert"');
		expect(html).toContain("ship_to.country: must be an ISO 3166-1 alpha-2 country code");
		expect(await ordersOf(user)).toEqual([]);
	});

	it("refuses an order step naming another account's print file or quote (404), placing nothing", async () => {
		const user = await signedInUser("support");
		const stranger = await signedInUser("support");
		const theirs = hiddenFields(await (await stranger.upload("/partner/place/form", orderForm("PO-THEIRS"))).text());
		const mine = hiddenFields(await (await user.upload("/partner/place/form", orderForm("PO-MINE"))).text());
		const foreignFile = await user.post("/partner/place/order", { ...mine, print_file_id: theirs.print_file_id ?? "" });
		expect(foreignFile.status).toBe(404);
		const foreignQuote = await user.post("/partner/place/order", { ...mine, quote_id: theirs.quote_id ?? "" });
		expect(foreignQuote.status).toBe(404);
		// The other mode's: a live file is not found on the test page.
		const otherMode = await user.post("/partner/place/order?mode=test", mine);
		expect(otherMode.status).toBe(404);
		expect(await ordersOf(user)).toEqual([]);
		expect(await ordersOf(user, "test")).toEqual([]);
	});

	it("places a test order from the test page, and nothing in live", async () => {
		const user = await signedInUser("owner");
		const quoted = await user.upload("/partner/place/form?mode=test", orderForm("PO-TEST-1"));
		expect(quoted.status).toBe(200);
		const placed = await user.post("/partner/place/order?mode=test", hiddenFields(await quoted.text()));
		expect(placed.status).toBe(303);
		expect(placed.headers.get("Location")).toMatch(/mode=test$/);
		expect((await ordersOf(user, "test")).map((order) => order.external_id)).toEqual(["PO-TEST-1"]);
		expect(await ordersOf(user, "live")).toEqual([]);
	});
});

describe("many orders by CSV", () => {
	it("offers a template: the header row and one example row", async () => {
		const user = await signedInUser("support");
		const response = await user.get("/partner/place/csv/template.csv");
		expect(response.status).toBe(200);
		expect(response.headers.get("Content-Type")).toContain("text/csv");
		const lines = (await response.text()).trim().split("\r\n");
		expect(lines).toHaveLength(2);
		expect(lines[0]).toMatch(/^external_id,print_file_id,print_file_url,width_in,height_in,frame/);
		expect(lines[1]).toMatch(/^PO-1001,,https:/);
	});

	it("previews each row's verdict in the API's words and each order's price, creating nothing", async () => {
		const user = await signedInUser("support");
		const stranger = await createPartner("Other Gallery");
		const sharp = await storedFile(user.partner.account.id, sharpPng());
		const blurry = await storedFile(user.partner.account.id, smallPng(48, 48));
		const theirs = await storedFile(stranger.account.id, sharpPng());
		const text = [
			HEADER,
			row({ id: "PO-A", file: sharp }),
			row({ id: "PO-A", url: "https://example.com/prints/second.jpg" }),
			row({ id: "PO-B", file: sharp, frame: "gold-leaf-999" }),
			row({ id: "PO-C", file: sharp, size: "8xbig" }),
			row({ id: "PO-D", file: sharp, name: "" }),
			row({ id: "PO-E", file: theirs }),
			row({ id: "PO-F", file: blurry }),
		].join("\n");
		const preview = await user.upload("/partner/place/csv", csvFile(text));
		expect(preview.status).toBe(200);
		const html = await preview.text();
		expect(html).toContain("1 of 6 orders are ready to place");
		expect(html).toContain("No frame &quot;gold-leaf-999&quot; in the catalog.");
		expect(html).toContain("height_in: Invalid input: expected number, received string");
		expect(html).toContain("ship_to_name is required");
		expect(html).toContain(`print_file_id: No print file ${theirs}`);
		expect(html).toMatch(/below the 150 DPI minimum/);
		expect(html).toMatch(/\$[\d,]+\.\d\d/);
		expect(await ordersOf(user)).toEqual([]);
	});

	it("creates exactly the previewed file's ready orders, and a re-upload of the same file places nothing twice", async () => {
		const user = await signedInUser("developer");
		const sharp = await storedFile(user.partner.account.id, sharpPng());
		const text = [
			HEADER,
			row({ id: "PO-1", file: sharp }),
			row({ id: "PO-1", file: sharp, size: "10x8" }),
			row({ id: "PO-2", file: sharp }),
			row({ id: "PO-3", file: sharp, frame: "nope" }),
		].join("\r\n");
		const preview = await (await user.upload("/partner/place/csv", csvFile(text))).text();
		expect(preview).toContain("2 of 3 orders are ready to place");
		const created = await user.post("/partner/place/csv/create", carriedOf(preview));
		expect(created.status).toBe(200);
		expect(await created.text()).toContain("2 orders were placed");
		const orders = await ordersOf(user);
		expect(orders.map((order) => order.external_id).sort()).toEqual(["PO-1", "PO-2"]);
		const again = await (await user.upload("/partner/place/csv", csvFile(text))).text();
		expect(again).toContain("Already placed: nothing new");
		expect(again).toContain("0 of 3 orders are ready to place");
		const repeat = await user.post("/partner/place/csv/create", carriedOf(preview));
		expect(await repeat.text()).toContain("No new order was placed.");
		expect(await ordersOf(user)).toHaveLength(2);
	});

	it("creates only a file this session previewed: an edited file or a forged mark is refused, creating nothing", async () => {
		const user = await signedInUser("support");
		const other = await signedInUser("support", user.partner);
		const sharp = await storedFile(user.partner.account.id, sharpPng());
		const text = [HEADER, row({ id: "PO-X", file: sharp })].join("\n");
		const carried = carriedOf(await (await user.upload("/partner/place/csv", csvFile(text))).text());
		const edited = btoa(`${text}\n${row({ id: "PO-Y", file: sharp })}`);
		const tampered = await user.post("/partner/place/csv/create", { content: edited, mark: carried.mark });
		expect(tampered.status).toBe(422);
		expect(await tampered.text()).toContain("does not carry the file that was previewed");
		const forged = await user.post("/partner/place/csv/create", { content: carried.content, mark: "A".repeat(43) });
		expect(forged.status).toBe(422);
		// Another session's preview mark is not this session's.
		const theirs = await other.post("/partner/place/csv/create", carried);
		expect(theirs.status).toBe(422);
		expect(await ordersOf(user)).toEqual([]);
	});

	it("refuses formula-like cells and hostile files with words, never a 500, creating nothing", async () => {
		const user = await signedInUser("support");
		const sharp = await storedFile(user.partner.account.id, sharpPng());
		const formula = await user.upload(
			"/partner/place/csv",
			csvFile([HEADER, row({ id: "PO-F", file: sharp, name: "=HYPERLINK(1)" })].join("\n")),
		);
		expect(formula.status).toBe(200);
		expect(await formula.text()).toContain("ship_to_name: starts like a spreadsheet formula");
		const hostile: [string, string | Uint8Array][] = [
			["an unknown column", "external_id,<script>\nPO,1"],
			["an unclosed quote", `${HEADER}\n"PO-1,${sharp}`],
			["no rows", HEADER],
			["an empty file", ""],
			["not UTF-8", new Uint8Array([0x65, 0x78, 0xff, 0xfe, 0x0a])],
			[
				"too many rows",
				[HEADER, ...Array.from({ length: 201 }, (_, index) => row({ id: `PO-${index}`, file: sharp }))].join("\n"),
			],
		];
		for (const [, content] of hostile) {
			const form = new FormData();
			form.set("file", new File([content], "orders.csv", { type: "text/csv" }));
			const response = await user.upload("/partner/place/csv", form);
			expect(response.status).toBe(422);
			expect(await response.text()).toContain('role="alert"');
		}
		const large = await user.upload("/partner/place/csv", csvFile(`${HEADER}\n${"x".repeat(300 * 1024)}`));
		expect(large.status).toBe(400);
		expect(await large.text()).toContain("larger than 256 KiB");
		expect(await ordersOf(user)).toEqual([]);
	});

	it("places test orders from the test page only", async () => {
		const user = await signedInUser("owner");
		const sharp = await storedFile(user.partner.account.id, sharpPng(), "test");
		const text = [HEADER, row({ id: "PO-T", file: sharp })].join("\n");
		const preview = await (await user.upload("/partner/place/csv?mode=test", csvFile(text))).text();
		await user.post("/partner/place/csv/create?mode=test", carriedOf(preview));
		expect((await ordersOf(user, "test")).map((order) => order.external_id)).toEqual(["PO-T"]);
		expect(await ordersOf(user, "live")).toEqual([]);
		// The live page does not find the test file.
		const live = await (await user.upload("/partner/place/csv", csvFile(text))).text();
		expect(live).toContain(`print_file_id: No print file ${sharp}`);
	});
});

describe("who may place orders", () => {
	it("refuses a viewer the pages and every form (403), placing nothing", async () => {
		const viewer = await signedInUser("viewer");
		for (const path of ["/partner/place", "/partner/place/csv", "/partner/place/csv/template.csv"]) {
			expect((await viewer.get(path)).status).toBe(403);
		}
		expect((await viewer.upload("/partner/place/form", orderForm("PO-V"))).status).toBe(403);
		expect((await viewer.post("/partner/place/order", {})).status).toBe(403);
		expect((await viewer.upload("/partner/place/csv", csvFile(HEADER))).status).toBe(403);
		expect((await viewer.post("/partner/place/csv/create", {})).status).toBe(403);
		expect(await ordersOf(viewer)).toEqual([]);
	});

	it("refuses every form without its token or with a forged one (403), placing nothing", async () => {
		const user = await signedInUser("support");
		const html = await (await user.upload("/partner/place/form", orderForm("PO-CSRF"))).text();
		const fields = hiddenFields(html);
		for (const token of [undefined, "forged-token"]) {
			const withToken: Record<string, string> = token === undefined ? {} : { _csrf: token };
			const { _csrf: _dropped, ...rest } = fields;
			expect((await post("/partner/place/order", { ...rest, ...withToken }, user.cookie)).status).toBe(403);
			expect(
				(await post("/partner/place/csv/create", { content: "", mark: "", ...withToken }, user.cookie)).status,
			).toBe(403);
			for (const path of ["/partner/place/form", "/partner/place/csv"]) {
				const form = path.endsWith("form") ? orderForm("PO-CSRF-2") : csvFile(HEADER);
				if (token !== undefined) form.set("_csrf", token);
				const response = await postMultipart(path, form, user.cookie);
				expect(response.status).toBe(403);
			}
		}
		expect(await ordersOf(user)).toEqual([]);
	});

	it("shows the section to roles that act on orders, pointing at its first page", async () => {
		const support = await signedInUser("support");
		expect(await (await support.get("/partner")).text()).toContain('href="/partner/place"');
		const viewer = await signedInUser("viewer");
		expect(await (await viewer.get("/partner")).text()).not.toContain('href="/partner/place"');
	});
});
