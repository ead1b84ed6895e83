/**
 * The sandbox's controls (test keys only): move a test order on one step, make anything the floor, a
 * carrier or the service team does happen to a test order or claim, choose whether test orders move on
 * by themselves, and send a sample of any event. A live key is refused with 403 on every one.
 */
import { z } from "@hono/zod-openapi";
import type { Context } from "hono";
import { jsonResponse, protectedRoute } from "../access/protected-route.ts";
import type { AuthedEnv } from "../accounts/authed-env.ts";
import { keyHashesOf, SANDBOX_PROGRESS, updateSandboxProgress } from "../accounts/store.ts";
import { type Decision, handOverDecision, resolveClaim } from "../claims/resolve-claim.ts";
import { ClaimIdParams, ClaimSchema } from "../claims/schema.ts";
import { findOwnedClaim } from "../claims/store.ts";
import { databaseOf, directoryDatabase } from "../databases.ts";
import { createApp } from "../http/create-app.ts";
import { ApiError, errorResponses, okOrThrow } from "../http/errors.ts";
import { moveResult, orderMachine } from "../orders/machine.ts";
import { OrderIdParams, OrderSchema, toOrder } from "../orders/response.ts";
import { findOwnedOrder } from "../orders/store.ts";
import { forgetKeys } from "../rate-limit/middleware.ts";
import type { EventTypes } from "../webhooks/event-types.ts";
import { sendSamples } from "./send-samples.ts";
import { SimulateClaimBody, SimulateOrderBody } from "./simulate-body.ts";
import { simulateOrder } from "./simulate-order.ts";

const advanceRoute = protectedRoute("orders:write", {
	method: "post",
	path: "/sandbox/orders/{id}/advance",
	tags: ["Sandbox"],
	summary: "Move a test-mode order one step on at once (validation, production, shipping, delivery)",
	request: { params: OrderIdParams },
	responses: { 200: jsonResponse(OrderSchema, "The order after the step."), ...errorResponses(403, 404, 409) },
});

const simulateOrderRoute = protectedRoute("orders:write", {
	method: "post",
	path: "/sandbox/orders/{id}/simulate",
	tags: ["Sandbox"],
	summary:
		"Make something happen to a test order as the floor or a carrier would: validate, hold (any reason), release, ship (in boxes), deliver, return, cancel",
	description:
		"Each action is the live move, through the same state machine, ledger and events: a move the order's status does not allow is the same 409 as live, and each sends the webhooks a live order's would.",
	request: {
		params: OrderIdParams,
		body: { required: true, content: { "application/json": { schema: SimulateOrderBody } } },
	},
	responses: {
		200: jsonResponse(OrderSchema, "The order after the action."),
		...errorResponses(400, 403, 404, 409, 422),
	},
});

const simulateClaimRoute = protectedRoute("orders:write", {
	method: "post",
	path: "/sandbox/claims/{id}/simulate",
	tags: ["Sandbox"],
	summary: "Decide a test claim as the service team would: approve with a reprint or a refund, or reject",
	request: {
		params: ClaimIdParams,
		body: { required: true, content: { "application/json": { schema: SimulateClaimBody } } },
	},
	responses: {
		200: jsonResponse(ClaimSchema, "The claim, resolved; `claim.approved` or `claim.rejected` is sent."),
		...errorResponses(400, 403, 404, 409, 422),
	},
});

const SandboxSettingsSchema = z
	.object({
		progress: z.enum(SANDBOX_PROGRESS).openapi({
			description:
				"`automatic`: a new test order is validated, then shipped and delivered by itself, a step at a time. `manual`: it stays `received` until the sandbox's controls move it, and nothing moves it on by itself.",
			example: "manual",
		}),
	})
	.openapi("SandboxSettings");

const settingsRoute = protectedRoute("orders:write", {
	method: "put",
	path: "/sandbox/settings",
	tags: ["Sandbox"],
	summary: "Choose whether new test orders move on by themselves or only by the sandbox's controls",
	request: { body: { required: true, content: { "application/json": { schema: SandboxSettingsSchema.strict() } } } },
	responses: { 200: jsonResponse(SandboxSettingsSchema, "The settings now."), ...errorResponses(400, 403, 422) },
});

const readSettingsRoute = protectedRoute("orders:read", {
	method: "get",
	path: "/sandbox/settings",
	tags: ["Sandbox"],
	summary: "How new test orders move on",
	responses: { 200: jsonResponse(SandboxSettingsSchema, "The settings."), ...errorResponses(403) },
});

/** The routes of the sandbox; the sample events name the types the service sends (`types.sent`). */
export function sandboxRoutes(types: EventTypes) {
	const sampleRoute = sampleEventRoute(types);
	return createApp<AuthedEnv>()
		.openapi(advanceRoute, async (c) => {
			const { id } = c.req.valid("param");
			const owner = testOwner(c);
			const found = await findOwnedOrder(databaseOf(c.env, owner.accountId), owner, id, c.env.PRINT_FILES);
			if (found === null) throw new ApiError("order_not_found", `No order ${id}.`, "id");
			return c.json(toOrder(okOrThrow(moveResult(await orderMachine(c.env, id).advance(id))).order), 200);
		})
		.openapi(simulateOrderRoute, async (c) => {
			const simulated = await simulateOrder(c.env, testOwner(c), c.req.valid("param").id, c.req.valid("json"));
			return c.json(toOrder(okOrThrow(simulated).order), 200);
		})
		.openapi(simulateClaimRoute, async (c) => {
			const owner = testOwner(c);
			const { id } = c.req.valid("param");
			const found = await findOwnedClaim(databaseOf(c.env, owner.accountId), owner, id);
			if (found === null) throw new ApiError("claim_not_found", `No claim ${id}.`, "id");
			const body = c.req.valid("json");
			const decision: Decision =
				body.action === "approve"
					? { kind: "approve", remedy: body.remedy, message: body.message ?? null }
					: { kind: "reject", message: body.message };
			const decided = okOrThrow(await resolveClaim(c.env, id, decision, new Date()));
			handOverDecision(c.env, c.executionCtx, c.var.requestId, decided);
			return c.json(decided.claim, 200);
		})
		.openapi(readSettingsRoute, (c) => {
			testOwner(c);
			return c.json({ progress: c.var.principal.sandboxProgress }, 200);
		})
		.openapi(settingsRoute, async (c) => {
			const owner = testOwner(c);
			const stored = await updateSandboxProgress(
				directoryDatabase(c.env),
				owner.accountId,
				c.req.valid("json").progress,
			);
			if (stored === null) throw new ApiError("account_not_found", `No account ${owner.accountId}.`);
			// Each key's limiter holds its principal, with the setting a new order takes: they read it again.
			await forgetKeys(c.env, await keyHashesOf(directoryDatabase(c.env), { accountId: owner.accountId }));
			return c.json({ progress: stored }, 200);
		})
		.openapi(sampleRoute, async (c) => {
			const owner = testOwner(c);
			const sent = await sendSamples(c.env, owner, c.req.valid("json").type, types.sent, new Date());
			return c.json(okOrThrow(sent).result, 200);
		});
}

/** `POST /v1/sandbox/events`: a sample of an event type to the account's test endpoints. */
function sampleEventRoute(types: EventTypes) {
	const sent = types.sent as [string, ...string[]];
	return protectedRoute("orders:write", {
		method: "post",
		path: "/sandbox/events",
		tags: ["Sandbox"],
		summary:
			"Send a signed sample of any event type to the account's test endpoints that subscribe to it: one attempt each, marked as a sample, nothing in the event log",
		request: {
			body: {
				required: true,
				content: {
					"application/json": {
						schema: z
							.strictObject({ type: z.enum(sent).openapi({ example: "order.on_hold" }) })
							.openapi("SandboxSampleEventRequest"),
					},
				},
			},
		},
		responses: {
			200: jsonResponse(SampleSentSchema, "What each endpoint answered."),
			...errorResponses(400, 403, 409, 422),
		},
	});
}

const SampleSentSchema = z
	.object({
		id: z.string().openapi({
			description: "The sample's id (`evt_sample_…`), also its `webhook-id`.",
			example: "evt_sample_4Tq8x2LmP0aZ",
		}),
		type: z.string().openapi({ example: "order.on_hold" }),
		body: z.record(z.string(), z.unknown()).openapi({
			description: 'The body sent, as signed: the event\'s schema, with `"sample": true`.',
			additionalProperties: true,
			example: {
				id: "evt_sample_4Tq8x2LmP0aZ",
				event: "order.canceled",
				created_at: "2026-11-27T10:00:00.000Z",
				order_id: "ord_sample_8Kq2Lm0a",
				external_id: "SAMPLE-1001",
				status: "canceled",
				version: 4,
				canceled_at: "2026-11-27T10:00:00.000Z",
				metadata: { sample: "true" },
				sample: true,
			},
		}),
		deliveries: z.array(
			z.object({
				endpoint_id: z.string().openapi({ example: "whe_3Lk9" }),
				url: z.string().openapi({ example: "https://example.com/hooks" }),
				delivered: z.boolean().openapi({ example: true }),
				status_code: z.number().int().nullable().openapi({ example: 200 }),
				error: z.string().nullable().openapi({ example: null }),
			}),
		),
	})
	.openapi("SandboxSampleEvent");

/** The caller as the owner of test data, or the 403 every sandbox control answers a live key. */
function testOwner(c: Context<AuthedEnv>) {
	const { principal } = c.var;
	if (principal.mode !== "test") {
		throw new ApiError("sandbox_needs_test_key", "The sandbox only works on test-mode data: use a fps_test_ key.");
	}
	return principal;
}
