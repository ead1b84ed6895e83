/** Hono environment of every route: the Worker bindings and the request id. */
export type PublicEnv = { Bindings: Env; Variables: { requestId: string } };
