import type { Principal } from "../accounts/store.ts";

/** Hono environment of every route: the Worker bindings and the request id. */
export type PublicEnv = { Bindings: Env; Variables: { requestId: string } };

/** Hono environment of routes behind the bearer-key middleware, which sets `principal`. */
export type AuthedEnv = { Bindings: Env; Variables: { requestId: string; principal: Principal } };
