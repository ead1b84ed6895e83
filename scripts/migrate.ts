/**
 * `npm run db:migrate -- [--remote] [--env staging] [--persist-to folder] [--config file]`: applies the
 * pending D1 migrations to every database wrangler.toml's `[[d1_databases]]` names for the environment
 * (the top level unless `--env` names one), one after another, local unless `--remote`. Stops at the
 * first database that fails, naming it and what was migrated before it, with a non-zero exit.
 * `npm run deploy` and `npm run deploy:staging` run it with `--remote` before deploying.
 */
import path from "node:path";
import { parseArgs } from "node:util";
import { applyMigrations, type D1Target, d1BindingsOf } from "./lib/wrangler.ts";

const { values } = parseArgs({
	options: {
		remote: { type: "boolean", default: false },
		env: { type: "string" },
		"persist-to": { type: "string" },
		config: { type: "string" },
	},
	strict: true,
});

if (values.remote && values["persist-to"] !== undefined) {
	console.error("db:migrate: --persist-to names a local folder; it does not go with --remote");
	process.exit(2);
}
const target: D1Target = values.remote
	? { remote: true }
	: { remote: false, ...(values["persist-to"] === undefined ? {} : { persistTo: path.resolve(values["persist-to"]) }) };
const where = {
	...(values.config === undefined ? {} : { config: path.resolve(values.config) }),
	...(values.env === undefined ? {} : { env: values.env }),
};

const environment = values.env === undefined || values.env === "" ? "the top level" : `environment ${values.env}`;
try {
	const bindings = await d1BindingsOf(where);
	console.log(
		`Applying ${values.remote ? "remote" : "local"} D1 migrations to ${bindings.length} database(s) of ${environment}: ${bindings.join(", ")}`,
	);
	const migrated = await applyMigrations(target, where);
	console.log(`Migrated: ${migrated.join(", ")}`);
} catch (error) {
	console.error(`db:migrate: ${error instanceof Error ? error.message : String(error)}`);
	process.exit(1);
}
