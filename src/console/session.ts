/**
 * The operator console's session cookie: its name and length (the signing is src/http/signed-session.ts;
 * the marks a shipments preview puts on the file it showed, src/http/carried-file.ts).
 */

/** The cookie's name without its `__Host-` prefix (hono/cookie adds it with `prefix: "host"`). */
export const SESSION_COOKIE = "ops_session";

/** The cookie's full name as the browser sends it. */
export const SESSION_COOKIE_HEADER_NAME = `__Host-${SESSION_COOKIE}`;

/** A session lasts one shift. */
export const SESSION_SECONDS = 12 * 60 * 60;
