/**
 * The service's settings, read once from the Worker's variables and secrets, each with its default
 * and bounds. Nothing else reads a setting from `env` as a string (but the measuring switch
 * COST_TRACE, which the entry reads once at load: src/dev-tools/). A value out of bounds
 * fails the first request that needs the settings (a logged 500) with a message naming the variable,
 * rather than being quietly replaced by a default. A leaf: it imports nothing of the service.
 */
import { z } from "zod";

/** Seconds, as the variables carry them (strings), within bounds; the default when unset or empty. */
function seconds(fallback: number, bounds: { min: number; max: number }) {
	return z.preprocess(
		(value) => (value === undefined || value === "" ? fallback : Number(value)),
		z.number().min(bounds.min).max(bounds.max),
	);
}

/** Whole days, as the variables carry them (strings), within bounds; the default when unset or empty. */
function days(fallback: number, bounds: { min: number; max: number }) {
	return z.preprocess(
		(value) => (value === undefined || value === "" ? fallback : Number(value)),
		z.number().int().min(bounds.min).max(bounds.max),
	);
}

/** A secret or address that may be absent; empty counts as absent. */
const optionalText = z.preprocess((value) => (value === "" ? undefined : value), z.string().optional());

/** The fewest characters a signing secret may have, and the fewest different ones. */
export const SECRET_MIN_LENGTH = 32;
export const SECRET_MIN_DISTINCT = 8;

/**
 * A signing secret that may be absent (empty counts as absent). One that is set must be long and
 * varied enough not to be guessed offline: anyone holding one signed URL or cookie can try keys
 * against it as fast as they like. `openssl rand -base64 32` gives one.
 */
const optionalSecret = z.preprocess(
	(value) => (value === "" ? undefined : value),
	z
		.string()
		.min(SECRET_MIN_LENGTH, `must be at least ${SECRET_MIN_LENGTH} characters (openssl rand -base64 32 makes one)`)
		.refine((value) => value.trim() === value, "must not begin or end with whitespace")
		.refine(
			(value) => new Set(value).size >= SECRET_MIN_DISTINCT,
			`must have at least ${SECRET_MIN_DISTINCT} different characters`,
		)
		.optional(),
);

/** JSON carried in a variable, parsed before its schema; unparseable text is left for the schema to refuse. */
function fromJson(value: unknown): unknown {
	if (value === undefined || value === "") return undefined;
	if (typeof value !== "string") return value;
	try {
		return JSON.parse(value);
	} catch {
		return value;
	}
}

/** A D1 binding's name as wrangler.toml spells it. */
const BINDING_NAME = /^[A-Z][A-Z0-9_]{0,63}$/;

/**
 * The ranges of account ids and the D1 binding holding each, as a JSON array sorted by `from`; the first
 * starts at "" so that every account has a database. Unset or empty: one range, every account in DB.
 */
const accountDatabases = z.preprocess(
	(value) => fromJson(value) ?? [{ from: "", binding: "DB" }],
	z
		.array(
			z.object({ from: z.string().max(64), binding: z.string().regex(BINDING_NAME, "must be a D1 binding's name") }),
		)
		.min(1, "must name at least one range")
		.max(256)
		.refine((ranges) => ranges[0]?.from === "", 'must begin with a range from "" (every account has a database)')
		.refine(
			(ranges) => ranges.every((range, index) => index === 0 || (ranges[index - 1]?.from ?? "") < range.from),
			"must list its ranges by `from`, ascending, each once",
		),
);

/** One line of an address, as an order's ship-to takes it: no line breaks or control characters. */
function addressLine(max: number) {
	return z
		.string()
		.trim()
		.min(1)
		.max(max)
		.refine((text) => !/\p{Cc}/u.test(text), "must be one line without control characters");
}

/**
 * The facility orders ship from, as JSON with an order's ship-to fields (`name`, `address1`,
 * `address2`, `city`, `state`, `zip`, `country` as ISO 3166-1 alpha-2, `phone`, `email`): the sender
 * on a commercial invoice. Unset or empty: no commercial invoice can be printed.
 */
const shipFromAddress = z.preprocess(
	fromJson,
	z
		.strictObject(
			{
				name: addressLine(100),
				address1: addressLine(200),
				address2: addressLine(200).optional(),
				city: addressLine(100),
				state: addressLine(100).optional(),
				zip: addressLine(20).optional(),
				country: z.string().regex(/^[A-Z]{2}$/, "must be an ISO 3166-1 alpha-2 code in capitals, such as US"),
				phone: addressLine(30).optional(),
				email: addressLine(254).optional(),
			},
			"must be a JSON object of address fields (name, address1, city, country, ...)",
		)
		.optional(),
);

/** The service's EU Import One-Stop Shop number: IM and ten digits. Empty counts as unset. */
const iossNumber = z.preprocess(
	(value) => (value === "" ? undefined : value),
	z
		.string()
		.regex(/^IM\d{10}$/, "must be an IOSS number: IM and ten digits, such as IM3720000001")
		.optional(),
);

/** Settings whose values are never written into an error message or a log. */
const SECRET_SETTINGS: ReadonlySet<string> = new Set([
	"UPLOAD_SIGNING_SECRET",
	"CONSOLE_SESSION_SECRET",
	"R2_S3_SECRET_ACCESS_KEY",
]);

const ConfigSchema = z
	.object({
		/** "development" relaxes outbound URL rules (http and loopback receivers) for local testing. */
		ENVIRONMENT: z.enum(["production", "development"]).default("production"),
		/** How upload URLs are made: the worker's signed route, or R2's presigned S3 PUT. */
		UPLOAD_METHOD: z.enum(["worker", "r2-presigned"]).default("worker"),
		UPLOAD_SIGNING_SECRET: optionalSecret,
		UPLOAD_URL_TTL_SECONDS: seconds(3600, { min: 1, max: 7 * 24 * 3600 }),
		R2_S3_ENDPOINT: optionalText,
		R2_S3_ACCESS_KEY_ID: optionalText,
		R2_S3_SECRET_ACCESS_KEY: optionalText,
		R2_BUCKET_NAME: optionalText,
		/** Seconds between the sandbox's automatic steps for test-mode orders. */
		SANDBOX_STEP_SECONDS: seconds(60, { min: 0, max: 24 * 3600 }),
		/** How long a webhook receiver has to answer. */
		WEBHOOK_TIMEOUT_SECONDS: seconds(10, { min: 0.001, max: 60 }),
		/** An order in received or validating this long is restarted by the cron. */
		STALLED_ORDER_SECONDS: seconds(300, { min: 1, max: 24 * 3600 }),
		/** A pending delivery this overdue has lost its queue message; the cron sends it again. */
		WEBHOOK_SWEEP_OVERDUE_SECONDS: seconds(120, { min: 1, max: 24 * 3600 }),
		/** The webhooks' queue, as wrangler.toml names it: its batches are delivered. */
		WEBHOOK_QUEUE: z.string().min(1).default("framed-print-webhooks"),
		/** The webhooks' dead-letter queue, as wrangler.toml names it: its batches go back to the cron sweep. */
		WEBHOOK_DEAD_LETTER_QUEUE: z.string().min(1).default("framed-print-webhooks-dlq"),
		/** The thumbnails' queue, as wrangler.toml names it: its batches go to the thumbnail consumer. */
		THUMBNAIL_QUEUE: z.string().min(1).default("framed-print-thumbnails"),
		/** A pending thumbnail whose message was sent this long ago has lost it; the cron sends it again. */
		THUMBNAIL_SWEEP_OVERDUE_SECONDS: seconds(600, { min: 1, max: 24 * 3600 }),
		CONSOLE_SESSION_SECRET: optionalSecret,
		/** Hours an order may stay in production before the floor's queue flags it as late. */
		PRODUCTION_SLA_HOURS: seconds(72, { min: 1, max: 24 * 60 }),
		/**
		 * Days an event and its deliveries stay in D1 before the cron archives them to R2. At least a week:
		 * a delivery's retries end within a day of its event, and partners reconcile from the log.
		 */
		EVENT_RETENTION_DAYS: days(90, { min: 7, max: 3650 }),
		/**
		 * Days after an order was delivered or canceled before the cron moves it (items, shipments, history)
		 * to an immutable record in R2, leaving a slim row in D1. It reads back the same; a move brings it back.
		 */
		ORDER_ARCHIVE_DAYS: days(60, { min: 1, max: 3650 }),
		/**
		 * Days a print file (or claim photo) is kept after its last use ends: its last order delivered or
		 * canceled, its claim decided; a file never used, after its creation. Past it the cron deletes the
		 * bytes. At least 31: a claim may come up to 30 days after delivery, and its reprint needs the file.
		 */
		PRINT_FILE_RETENTION_DAYS: days(45, { min: 31, max: 3650 }),
		/**
		 * Which D1 database holds each account's rows: ranges of account ids, each from its `from` (inclusive)
		 * to the next one's, named by binding. Read by src/databases.ts only. Default: every account in DB.
		 */
		ACCOUNT_DATABASES: accountDatabases,
		/**
		 * Seconds an isolate keeps the accounts' placements (moved accounts) before reading them again; a
		 * move waits longer than this between switching an account and removing its old rows.
		 */
		PLACEMENT_TTL_SECONDS: seconds(30, { min: 1, max: 3600 }),
		/** The facility orders ship from: the sender on a commercial invoice. */
		SHIP_FROM_ADDRESS: shipFromAddress,
		/** The service's IOSS number, printed on the commercial invoice of an order whose tax was charged under it. */
		IOSS_NUMBER: iossNumber,
	})
	.superRefine((config, ctx) => {
		// The consumer tells the two apart by name: were they one, every batch would be taken for dead
		// letters and handed to the sweep, and no webhook would be delivered from the queue.
		if (config.WEBHOOK_DEAD_LETTER_QUEUE === config.WEBHOOK_QUEUE) {
			ctx.addIssue({
				code: "custom",
				path: ["WEBHOOK_DEAD_LETTER_QUEUE"],
				message: `must differ from WEBHOOK_QUEUE (${config.WEBHOOK_QUEUE})`,
			});
		}
	});

/** The settings, parsed. */
export type Config = z.infer<typeof ConfigSchema>;

/** A setting out of its bounds: names the variable and what it holds. */
export class ConfigError extends Error {
	override name = "ConfigError";
}

const parsed = new WeakMap<object, Config>();

/** The settings of this Worker's environment, parsed on first use and kept for the isolate's life. */
export function configOf(env: object): Config {
	const known = parsed.get(env);
	if (known !== undefined) return known;
	const result = ConfigSchema.safeParse(env);
	if (!result.success) {
		const issue = result.error.issues[0];
		const variable = String(issue?.path[0] ?? "a setting");
		const value = (env as Record<string, unknown>)[variable];
		const shown =
			SECRET_SETTINGS.has(variable) && typeof value === "string"
				? `a secret of ${value.length} characters`
				: JSON.stringify(value);
		throw new ConfigError(`${variable} is ${shown}: ${issue?.message ?? "invalid"}`);
	}
	parsed.set(env, result.data);
	return result.data;
}

/**
 * `env` with some bindings replaced (a request's D1 sessions) and the same settings: they are taken over
 * from `env` as parsed, not parsed again for every request.
 */
export function envWithBindings<T extends object>(env: T, replaced: Readonly<Record<string, unknown>>): T {
	const derived = { ...env, ...replaced };
	parsed.set(derived, configOf(env));
	return derived;
}

/** Whether the service may call loopback and plain-http addresses (local development only). */
export function allowsLocalUrls(env: object): boolean {
	return configOf(env).ENVIRONMENT === "development";
}
