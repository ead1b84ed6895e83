import type { Principal } from "./store.ts";

/** Hono environment of routes behind the bearer-key middleware, which sets `principal`. */
export type AuthedEnv = { Bindings: Env; Variables: { requestId: string; principal: Principal } };
