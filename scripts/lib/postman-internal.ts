/**
 * The production floor's and the service team's Postman collections: one request per operation of
 * their document, in folders by tag, each with the document's example body, its ids as collection
 * variables (`{{order_id}}`, `{{account_id}}`: set them to real ones before sending), and a test
 * script that checks the answer's status and, for JSON, its shape. They are not a chained run: each
 * request acts on the ids its reader gives it, with the `ops` or `admin` key of `{{ops_key}}` /
 * `{{admin_key}}`.
 *
 * Pure, without Node or workerd APIs.
 */
import type { Audience } from "../../src/openapi/audiences.ts";
import {
	BASE_URL_VARIABLE,
	bearerAuth,
	contentTypeTest,
	infoOf,
	type OpenApiSource,
	type OperationOf,
	operationsOf,
	type PostmanCollection,
	type PostmanFolder,
	type PostmanVariable,
	parameterExample,
	requestOf,
	schemaTest,
	scriptEvent,
	statusTest,
	successStatuses,
} from "./postman-collection.ts";

/** The collections other than the partner's, and the key variable each authenticates with. */
export const INTERNAL_KEYS: Readonly<Record<Exclude<Audience, "partner">, { variable: string; description: string }>> =
	{
		ops: { variable: "ops_key", description: "A live key with the `ops` scope; sent as Authorization: Bearer." },
		admin: { variable: "admin_key", description: "A live key with the `admin` scope; sent as Authorization: Bearer." },
	};

/**
 * The variable a path parameter takes its value from: `{id}` after `/orders` is `order_id`, after
 * `/print-files` `print_file_id`; a parameter already named `..._id` keeps its name. Others
 * (an archive's `{mode}` and `{day}`) keep the document's example.
 */
function variableOf(path: string, parameter: string): string | undefined {
	if (parameter.endsWith("_id")) return parameter;
	if (parameter !== "id") return undefined;
	const segments = path.split("/");
	const before = segments[segments.indexOf(`{${parameter}}`) - 1] ?? "";
	return `${before.replace(/s$/, "").replaceAll("-", "_")}_id`;
}

function requestFor(entry: OperationOf, document: OpenApiSource, ids: Map<string, PostmanVariable>) {
	const components = document.components?.schemas ?? {};
	const pathValues: Record<string, string> = {};
	for (const parameter of entry.operation.parameters ?? []) {
		if (parameter.in !== "path") continue;
		const variable = variableOf(entry.path, parameter.name);
		if (variable === undefined) continue;
		pathValues[parameter.name] = `{{${variable}}}`;
		if (!ids.has(variable)) {
			ids.set(variable, {
				key: variable,
				value: parameterExample(parameter, components) ?? "",
				type: "string",
				description: `The ${variable.replace(/_id$/, "").replaceAll("_", " ")} to act on: the document's example until you set a real id.`,
			});
		}
	}
	const statuses = successStatuses(entry.operation);
	const [first] = statuses;
	const checks =
		first === undefined
			? []
			: [...schemaTest(entry.operation, first, components), ...contentTypeTest(entry.operation, first)];
	// The shape is checked on the first success's answer only: an error's is not an order, and another 2xx
	// (a replay's 200 beside a 201) has its own.
	const tests = [
		...statusTest(statuses),
		...(checks.length > 0 ? [`if (pm.response.code === ${first}) {`, ...checks.map((line) => `\t${line}`), "}"] : []),
	];
	return requestOf(entry, components, { pathValues, events: [scriptEvent("test", tests)] });
}

/** The collection of `audience`'s document: a folder per tag, in the document's tag order. */
export function internalCollection(document: OpenApiSource, audience: Exclude<Audience, "partner">): PostmanCollection {
	const folders = new Map<string, PostmanFolder>(
		(document.tags ?? []).map((tag) => [
			tag.name,
			{ name: tag.name, ...(tag.description === undefined ? {} : { description: tag.description }), item: [] },
		]),
	);
	const ids = new Map<string, PostmanVariable>();
	for (const entry of operationsOf(document)) {
		const tag = entry.operation.tags?.[0] ?? "Other";
		const folder = folders.get(tag) ?? { name: tag, item: [] };
		folders.set(tag, folder);
		folder.item.push(requestFor(entry, document, ids));
	}
	const key = INTERNAL_KEYS[audience];
	return {
		info: infoOf(
			document,
			`**This collection.** One request per operation, each with the document's example body and a test of its status and shape. Set \`${key.variable}\` and \`base_url\`, and each id variable to the record you mean to act on before sending: the requests are not a chained run, and they change real records.`,
		),
		auth: bearerAuth(key.variable),
		variable: [
			BASE_URL_VARIABLE,
			{ key: key.variable, value: "", type: "string", description: key.description },
			...ids.values(),
		],
		item: [...folders.values()].filter((folder) => folder.item.length > 0),
	};
}
