/**
 * The scripts of a second terminal follow the ports in use: the API's port is PORT when set, else the
 * one the running `npm start` noted, else 8787; the receiver's is RECEIVER_PORT, else the one the running
 * receiver noted, else 9000.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { devServerPort, notePort, receiverListenPort, receiverPort } from "../../scripts/lib/dev-credentials.ts";

const folder = mkdtempSync(path.join(tmpdir(), "dev-ports-"));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

describe("devServerPort", () => {
	it("follows the port npm start noted when PORT is not set", () => {
		const file = path.join(folder, "noted.json");
		notePort(8791, file);
		expect(devServerPort({}, file)).toBe("8791");
	});

	it("takes PORT over the noted port", () => {
		const file = path.join(folder, "noted-too.json");
		notePort(8791, file);
		expect(devServerPort({ PORT: "9100" }, file)).toBe("9100");
	});

	it("is 8787 with nothing noted, or a note it cannot read", () => {
		expect(devServerPort({}, path.join(folder, "absent.json"))).toBe("8787");
		const broken = path.join(folder, "broken.json");
		writeFileSync(broken, "{not json");
		expect(devServerPort({}, broken)).toBe("8787");
		const wrong = path.join(folder, "wrong.json");
		writeFileSync(wrong, '{"port": "eighty"}');
		expect(devServerPort({}, wrong)).toBe("8787");
	});
});

describe("receiverPort", () => {
	it("follows the port the running receiver noted when RECEIVER_PORT is not set", () => {
		const file = path.join(folder, "receiver.json");
		notePort(9011, file);
		expect(receiverPort({}, file)).toBe("9011");
		expect(receiverPort({ RECEIVER_PORT: "" }, file)).toBe("9011");
	});

	it("takes RECEIVER_PORT over the noted port, and is 9000 with neither", () => {
		const file = path.join(folder, "receiver-too.json");
		notePort(9011, file);
		expect(receiverPort({ RECEIVER_PORT: "9022" }, file)).toBe("9022");
		expect(receiverPort({}, path.join(folder, "no-receiver.json"))).toBe("9000");
	});
});

describe("receiverListenPort", () => {
	it("listens on RECEIVER_PORT when set, else 9000, whatever an earlier receiver noted", () => {
		expect(receiverListenPort({ RECEIVER_PORT: "9011" })).toBe("9011");
		expect(receiverListenPort({ RECEIVER_PORT: "" })).toBe("9000");
		expect(receiverListenPort({})).toBe("9000");
	});
});
