/** What the console's routes keep on a request besides its id: who is signed in. */

/** A signed-in operator: their session and the token their forms carry. */
export type OperatorSession = { id: string; keyId: string; csrfToken: string };

/** Every console route: `session` is null when no one is signed in. */
export type ConsoleEnv = { Bindings: Env; Variables: { requestId: string; session: OperatorSession | null } };

type SignedInEnv = { Bindings: Env; Variables: { requestId: string; operator: OperatorSession } };

/** Routes behind `requireSession`: Hono merges the middleware's variables into the app's. */
export type OperatorEnv = ConsoleEnv & SignedInEnv;
