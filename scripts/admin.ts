/**
 * The service team's admin CLI: `npm run admin -- <command> [options]`.
 * Acts on the local D1 database (as `wrangler dev` uses it) or, with --remote, the deployed one.
 */
import { parseArgs } from "node:util";
import { z } from "zod";
import {
	KEY_MODES,
	type KeyMode,
	keyScopeProblem,
	liveOnlyScopesIn,
	PARTNER_SCOPES,
	SCOPES,
	type Scope,
} from "../src/accounts/scopes.ts";
import type { NewAccount, NewServiceAccount } from "../src/admin/provisioning.ts";
import { PARTNER_ROLES } from "../src/partner-users/users.ts";
import { moveAccount } from "./lib/account-move.ts";
import {
	createAccount,
	createKey,
	createServiceAccount,
	inviteConsoleUser,
	listAccounts,
	revokeKey,
} from "./lib/accounts.ts";
import { archiveOrdersUntilDone } from "./lib/archive-orders.ts";
import type { D1Target } from "./lib/wrangler.ts";

const USAGE = `Usage: npm run admin -- <command> [options]

Commands:
  create-account --name <name> [--scopes a,b]        a partner account with live and test keys and a webhook secret
                                                     (with ops or admin: a service-team account, live key only)
  create-key --account <acct_id> --mode live|test [--scopes a,b]
                                                     (ops and admin keys are live-only)
  revoke-key --key <key_id>
  invite-user --account <acct_id> --email <address> --name <name> --role owner|developer|support|viewer
              [--origin <https://api.example.com>]
                                                     a console user; prints the link that sets their password
                                                     (once, within 7 days; origin: http://localhost:8787 unless told)
  list-accounts
  archive-orders [--days <n>] [--origin <https://api.example.com>] [--admin-key <key>]
                                                     archives finished orders to R2 through the running service
                                                     (POST /v1/admin/order-archive/run until a run archives none;
                                                     an admin key: the flag or ADMIN_API_KEY; origin: http://localhost:8787)
  move-account <acct_id> <binding> [--origin <https://api.example.com>] [--admin-key <key>]
                                                     moves the account's rows to the D1 binding named, through the
                                                     running Worker's admin route, until done (an admin key: the
                                                     flag or ADMIN_API_KEY); run again to resume a move cut short

Options:
  --json              machine-readable output
  --remote            act on the deployed D1 database (needs wrangler login) instead of the local one
  --persist-to <dir>  local persistence folder (default: wrangler's .wrangler/state)

Scopes: ${SCOPES.join(", ")} (default: ${PARTNER_SCOPES.join(",")})`;

class UsageError extends Error {}

function parseScopes(text: string | undefined): Scope[] {
	if (text === undefined) return [...PARTNER_SCOPES];
	const words = text.split(",").map((word) => word.trim());
	const unknown = words.filter((word) => !(SCOPES as readonly string[]).includes(word));
	if (unknown.length > 0 || words.length === 0) throw new UsageError(`unknown scope(s): ${unknown.join(", ")}`);
	return words as Scope[];
}

function parseMode(text: string | undefined): KeyMode {
	if (text === "live" || text === "test") return text;
	throw new UsageError(`--mode must be one of ${KEY_MODES.join(", ")}`);
}

function required(value: string | undefined, flag: string): string {
	if (value === undefined || value.trim() === "") throw new UsageError(`${flag} is required`);
	return value;
}

async function main(argv: string[]): Promise<number> {
	const { values, positionals } = parseArgs({
		args: argv,
		allowPositionals: true,
		options: {
			name: { type: "string" },
			account: { type: "string" },
			mode: { type: "string" },
			key: { type: "string" },
			scopes: { type: "string" },
			email: { type: "string" },
			role: { type: "string" },
			origin: { type: "string" },
			days: { type: "string" },
			"admin-key": { type: "string" },
			json: { type: "boolean", default: false },
			remote: { type: "boolean", default: false },
			"persist-to": { type: "string" },
			help: { type: "boolean", default: false },
		},
	});
	const [command] = positionals;
	if (values.help || command === undefined) {
		console.log(USAGE);
		return command === undefined && !values.help ? 2 : 0;
	}
	if (values.remote && values["persist-to"] !== undefined)
		throw new UsageError("--remote and --persist-to exclude each other");
	const target: D1Target = values.remote ? { remote: true } : { remote: false, persistTo: values["persist-to"] };
	const print = (result: unknown, text: string) => console.log(values.json ? JSON.stringify(result, null, 2) : text);

	switch (command) {
		case "create-account": {
			const name = required(values.name, "--name").trim();
			if (name.length > 200) throw new UsageError("--name is at most 200 characters");
			const scopes = parseScopes(values.scopes);
			let created: NewAccount | NewServiceAccount;
			let testKey: string;
			if (liveOnlyScopesIn(scopes).length > 0) {
				// Ops and admin keys act on live orders, so such an account gets no test key at all.
				created = await createServiceAccount(target, name, scopes);
				testKey = "none: ops and admin keys are live-only";
			} else {
				const partner = await createAccount(target, name, scopes);
				created = partner;
				testKey = `${partner.keys.test.key}   (id ${partner.keys.test.id})`;
			}
			print(
				created,
				[
					`account         ${created.account.id}  ${created.account.name}`,
					`live key        ${created.keys.live.key}   (id ${created.keys.live.id})`,
					`test key        ${testKey}`,
					`webhook secret  ${created.webhook_secrets.live}   (live webhooks)`,
					`webhook secret  ${created.webhook_secrets.test}   (test webhooks)`,
					"The keys and the secret are shown only now; store them safely.",
				].join("\n"),
			);
			return 0;
		}
		case "create-key": {
			const accountId = required(values.account, "--account");
			const mode = parseMode(values.mode);
			const scopes = parseScopes(values.scopes);
			// Refused before the database is touched, with the rule in the message.
			const problem = keyScopeProblem(mode, scopes);
			if (problem !== null) throw new UsageError(`${problem}; use --mode live`);
			const issued = await createKey(target, accountId, mode, scopes);
			if (issued === null) {
				console.error(`No account ${accountId}.`);
				return 1;
			}
			print(
				issued,
				`${issued.mode} key ${issued.key}   (id ${issued.id}, scopes ${issued.scopes.join(",")})\nShown only now.`,
			);
			return 0;
		}
		case "revoke-key": {
			const keyId = required(values.key, "--key");
			const revoked = await revokeKey(target, keyId);
			if (revoked === null) {
				console.error(`No key ${keyId}.`);
				return 1;
			}
			print(
				revoked,
				`revoked ${revoked.id} (${revoked.display_prefix}...) at ${revoked.revoked_at ?? "?"}; the service refuses it within 30 s (POST /v1/admin/keys/{key_id}/revoke stops it at once)`,
			);
			return 0;
		}
		case "invite-user": {
			const accountId = required(values.account, "--account");
			const email = required(values.email, "--email").trim();
			if (!z.regexes.email.test(email)) throw new UsageError("--email must be an email address");
			const name = required(values.name, "--name").trim();
			const role = PARTNER_ROLES.find((candidate) => candidate === values.role);
			if (role === undefined) throw new UsageError(`--role must be one of ${PARTNER_ROLES.join(", ")}`);
			const origin = new URL(values.origin ?? "http://localhost:8787").origin;
			const outcome = await inviteConsoleUser(target, { accountId, email, name, role });
			if (!outcome.ok) {
				console.error(outcome.message);
				return 1;
			}
			const { user, token, expiresAt } = outcome.invited;
			const link = `${origin}/partner/invitations/${token}`;
			print(
				{
					user: { id: user.id, account_id: user.account_id, email: user.email, name: user.name, role: user.role },
					invitation_url: link,
					expires_at: expiresAt,
				},
				`invited ${user.email} (${user.role}) to ${user.account_id} as ${user.id}\nlink (sets the password once, until ${expiresAt}; shown only now):\n${link}`,
			);
			return 0;
		}
		case "list-accounts": {
			const accounts = await listAccounts(target);
			print(
				accounts,
				accounts.length === 0
					? "No accounts."
					: accounts
							.map(
								(account) =>
									`${account.id}  ${account.name}  keys: ${account.active_keys} active, ${account.revoked_keys} revoked`,
							)
							.join("\n"),
			);
			return 0;
		}
		case "archive-orders": {
			const adminKey = required(values["admin-key"] ?? process.env.ADMIN_API_KEY, "--admin-key (or ADMIN_API_KEY)");
			const days = values.days === undefined ? undefined : Number(values.days);
			if (days !== undefined && !(Number.isInteger(days) && days >= 1))
				throw new UsageError("--days must be a whole number of days, 1 or more");
			const origin = new URL(values.origin ?? "http://localhost:8787").origin;
			const totals = await archiveOrdersUntilDone(origin, adminKey, days, (counts) => {
				if (!values.json) console.log(`run: ${counts.archived} archived, ${counts.skipped} left in D1`);
			});
			print(
				totals,
				`${totals.archived} orders archived in ${totals.runs} runs; ${totals.skipped} left in D1 (changed meanwhile, or a claim or delivery came)`,
			);
			return 0;
		}
		case "move-account": {
			const [, accountId, to] = positionals;
			const adminKey = values["admin-key"] ?? process.env.ADMIN_API_KEY;
			const moved = await moveAccount({
				baseUrl: new URL(values.origin ?? "http://localhost:8787").origin,
				adminKey: required(adminKey, "--admin-key (or ADMIN_API_KEY)"),
				accountId: required(accountId, "<acct_id>"),
				to: required(to, "<binding>"),
				onProgress: (move) => {
					if (!values.json) {
						console.log(
							`${move.id}  ${move.from} → ${move.to}  ${move.state}  copied ${move.copied_rows}  removed ${move.removed_rows}`,
						);
					}
				},
			});
			const verified = moved.tables.map((table) => `${table.table}: ${table.rows} rows, ${table.hash.slice(0, 12)}`);
			print(moved, moved.state === "done" ? `Moved.\n${verified.join("\n")}` : `The move failed: ${moved.error ?? ""}`);
			return moved.state === "done" ? 0 : 1;
		}
		default:
			throw new UsageError(`unknown command "${command}"`);
	}
}

try {
	process.exitCode = await main(process.argv.slice(2));
} catch (error) {
	if (
		error instanceof UsageError ||
		(error instanceof Error && "code" in error && String(error.code).startsWith("ERR_PARSE_ARGS"))
	) {
		console.error(`admin: ${error.message}\n\n${USAGE}`);
		process.exitCode = 2;
	} else {
		console.error(`admin: ${error instanceof Error ? error.message : String(error)}`);
		process.exitCode = 1;
	}
}
