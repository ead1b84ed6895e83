/**
 * The partner's Postman collection: a rehearsal, run in order with a test key, that carries ids from
 * one answer to the next request in collection variables. Catalog and prices; a print file created,
 * its bytes PUT to its upload URL, read until ready; a quote for the piece and an order against it,
 * changed while it is editable, read by id and by external_id, canceled, and its events read; a
 * second order moved to delivered by the sandbox and claimed; a webhook endpoint registered, read
 * and deleted; the test brand profile and this month's statement. Every request checks its status
 * and the shape of its answer against the document's schema.
 *
 * The run's steps and what it leaves out are data, in postman-rehearsal-steps.ts. Pure, without Node
 * or workerd APIs.
 */
import {
	BASE_URL_VARIABLE,
	bearerAuth,
	bodyExampleOf,
	contentTypeTest,
	infoOf,
	type OpenApiSource,
	type OperationOf,
	operationName,
	operationsOf,
	type PostmanCollection,
	type PostmanRequestItem,
	requestOf,
	schemaTest,
	scriptEvent,
	statusTest,
} from "./postman-collection.ts";
import {
	type BodyEdits,
	LEFT_OUT,
	REHEARSAL,
	REHEARSAL_PRINT_FILE,
	type RehearsalStep,
} from "./postman-rehearsal-steps.ts";

/** The document's example `body` with `edits` made: a copy. */
export function editedBody(body: unknown, edits: BodyEdits | undefined): unknown {
	const copy: unknown = structuredClone(body);
	const walk = (path: string): { parent: Record<string, unknown> | unknown[]; key: string } => {
		const keys = path.split(".");
		const last = keys.pop() ?? "";
		let node: unknown = copy;
		for (const key of keys) {
			node = typeof node === "object" && node !== null ? Reflect.get(node, key) : undefined;
		}
		if (typeof node !== "object" || node === null) throw new Error(`the example has nothing at ${path}`);
		return { parent: node as Record<string, unknown>, key: last };
	};
	for (const [path, value] of Object.entries(edits?.set ?? {})) {
		const { parent, key } = walk(path);
		Reflect.set(parent, key, value);
	}
	for (const path of edits?.remove ?? []) {
		const { parent, key } = walk(path);
		if (!Reflect.has(parent, key)) throw new Error(`the example has no ${path} to remove`);
		Reflect.deleteProperty(parent, key);
	}
	return copy;
}

/** `lines` run only when the answer has the step's status: a wrong status is one failure, not one per check. */
function onStatus(status: number, lines: string[]): string[] {
	return lines.length === 0 ? [] : [`if (pm.response.code === ${status}) {`, ...lines.map((line) => `\t${line}`), "}"];
}

/** What a step does with its answer: keeps its ids, checks it, and sends the request again while it waits. */
function answerLines(step: RehearsalStep): string[] {
	const lines = ["const body = pm.response.json();"];
	for (const [variable, expression] of Object.entries(step.keep ?? {})) {
		lines.push(`pm.collectionVariables.set("${variable}", ${expression});`);
	}
	const checks = Object.entries(step.checks ?? {}).flatMap(([title, assertion]) => [
		`pm.test(${JSON.stringify(title)}, function () {`,
		`\t${assertion};`,
		"});",
	]);
	if (step.until === undefined) return [...lines, ...checks];
	const { done, tries, waitMs } = step.until;
	const counter = JSON.stringify(`tries of ${step.name}`);
	return [
		...lines,
		`const tries = Number(pm.collectionVariables.get(${counter}) || "0") + 1;`,
		`if (!(${done}) && tries < ${tries}) {`,
		`\tpm.collectionVariables.set(${counter}, String(tries));`,
		"\tpm.execution.setNextRequest(pm.info.requestName);",
		`\tsetTimeout(function () {}, ${waitMs});`,
		"} else {",
		`\tpm.collectionVariables.unset(${counter});`,
		...checks.map((line) => `\t${line}`),
		"}",
	];
}

/** The test script of a step: its status, then its answer's shape, what it keeps for the next request, its checks. */
function testLines(step: RehearsalStep, entry: OperationOf, components: Readonly<Record<string, unknown>>): string[] {
	const isJson = entry.operation.responses?.[String(step.status)]?.content?.["application/json"] !== undefined;
	const shape = schemaTest(entry.operation, step.status, components);
	// The worker's own upload URL answers JSON; R2's presigned one an empty 200.
	if (step.url !== undefined) {
		const jsonShape =
			shape.length > 0
				? [
						'if (/json/.test(pm.response.headers.get("Content-Type") || "")) {',
						...shape.map((line) => `\t${line}`),
						"}",
					]
				: [];
		return [...statusTest([step.status]), ...onStatus(step.status, jsonShape)];
	}
	return [
		...statusTest([step.status]),
		...onStatus(step.status, [
			...shape,
			...contentTypeTest(entry.operation, step.status),
			...(isJson ? answerLines(step) : []),
		]),
	];
}

/** The first request also stops the run unless the key is a test key: a live key's run would order for real. */
const TEST_KEY_GUARD = [
	'const isTestKey = String(pm.variables.get("api_key") || "").indexOf("fps_test_") === 0;',
	'pm.test("the run uses a test key (fps_test_...)", function () {',
	"\tpm.expect(isTestKey).to.be.true;",
	"});",
	"if (!isTestKey) pm.execution.setNextRequest(null);",
];

function requestFor(
	step: RehearsalStep,
	entry: OperationOf,
	document: OpenApiSource,
	first: boolean,
): PostmanRequestItem {
	const components = document.components?.schemas ?? {};
	const example = step.body === undefined ? undefined : bodyExampleOf(entry.operation, components)?.json;
	const events = [
		...(step.prerequest === undefined ? [] : [scriptEvent("prerequest", step.prerequest)]),
		scriptEvent("test", [...(first ? TEST_KEY_GUARD : []), ...testLines(step, entry, components)]),
	];
	return requestOf(entry, components, {
		name: step.name,
		...(step.pathValues === undefined ? {} : { pathValues: step.pathValues }),
		...(step.queryValues === undefined ? {} : { queryValues: step.queryValues }),
		...(example === undefined ? {} : { json: editedBody(example, step.body) }),
		...(step.file === undefined ? {} : { file: step.file }),
		...(step.url === undefined ? {} : { url: step.url }),
		events,
	});
}

/** The variables the run sets, each described by the step that sets it. */
function keptVariables(): PostmanCollection["variable"] {
	return REHEARSAL.flatMap((stage) =>
		stage.steps.flatMap((step) => [
			...Object.keys(step.keep ?? {}).map((key) => ({ key, step: step.name })),
			...(step.prerequest?.some((line) => line.includes('collectionVariables.set("month"'))
				? [{ key: "month", step: step.name }]
				: []),
		]),
	).map(({ key, step }) => ({
		key,
		value: "",
		type: "string",
		description: `Set by "${step}" for the requests after it.`,
	}));
}

/** The run's description: how to run it, and what it leaves out. */
function runDescription(): string {
	const leftOut = Object.entries(LEFT_OUT)
		.map(([operation, why]) => `- \`${operation}\`: ${why}`)
		.join("\n");
	return `**This collection** is a rehearsal, to run in order with a test key (\`fps_test_...\`; its first request stops the run with any other key): each request takes the ids earlier answers left in collection variables, and checks its status and the shape of its answer against this document. Set \`api_key\` (and \`base_url\`). The upload sends \`${REHEARSAL_PRINT_FILE}\` from the run's working directory: \`npm run sample-file -- <folder>/${REHEARSAL_PRINT_FILE}\` writes one (2400 × 3000 px, 300 DPI at the 8 × 10 in the run orders), and newman takes the folder as \`--working-dir\`. With a test key the run reads and writes only test-mode data (orders, files, quotes, claims, endpoints, the test brand profile and statement) and sends nothing out of the service.\n\nLeft out of the run, and why:\n${leftOut}`;
}

/** The partner's collection for the partner's `document`. */
export function partnerCollection(document: OpenApiSource): PostmanCollection {
	const operations = new Map(operationsOf(document).map((entry) => [operationName(entry), entry]));
	const covered = new Set(REHEARSAL.flatMap((stage) => stage.steps.map((step) => step.operation)));
	const missing = [...operations.keys()].filter((name) => !covered.has(name) && !(name in LEFT_OUT));
	if (missing.length > 0) {
		throw new Error(
			`The partner's run neither sends nor leaves out ${missing.join(", ")}: add each to REHEARSAL or LEFT_OUT.`,
		);
	}
	let first = true;
	const item = REHEARSAL.map((stage) => ({
		name: stage.name,
		description: stage.description,
		item: stage.steps.map((step) => {
			const entry = operations.get(step.operation);
			if (entry === undefined)
				throw new Error(`the rehearsal's "${step.name}" names ${step.operation}, which the document has not`);
			const request = requestFor(step, entry, document, first);
			first = false;
			return request;
		}),
	}));
	return {
		info: infoOf(document, runDescription()),
		auth: bearerAuth("api_key"),
		variable: [
			BASE_URL_VARIABLE,
			{
				key: "api_key",
				value: "",
				type: "string",
				description: "A test key, fps_test_...; sent as Authorization: Bearer.",
			},
			...keptVariables(),
		],
		item,
	};
}
