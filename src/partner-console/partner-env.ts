/** What the partner console's routes keep on a request besides its id: who is signed in. */
import type { PartnerUserRow } from "../partner-users/users.ts";

/** A signed-in partner user: their session, their row, and the token their forms carry. */
export type PartnerViewer = { sessionId: string; user: PartnerUserRow; csrfToken: string };

/** Every partner console route: `viewer` is null when no one is signed in. */
export type PartnerConsoleEnv = { Bindings: Env; Variables: { requestId: string; viewer: PartnerViewer | null } };

type SignedInEnv = { Bindings: Env; Variables: { requestId: string; signedIn: PartnerViewer } };

/** Routes behind `requirePartner`. */
export type SignedInPartnerEnv = PartnerConsoleEnv & SignedInEnv;
