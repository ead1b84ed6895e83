import { requestId } from "hono/request-id";
import { newId } from "../ids.ts";

/**
 * `X-Request-Id` on every response: an incoming id of 1 to 128 of `[A-Za-z0-9_=-]` is echoed (so a
 * partner's trace id follows the request), anything else is replaced by a new `req_...` id.
 */
export const stampRequestId = requestId({
	headerName: "X-Request-Id",
	limitLength: 128,
	generator: () => newId("req"),
});
