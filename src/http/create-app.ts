import { OpenAPIHono } from "@hono/zod-openapi";
import type { Env as HonoEnv } from "hono";
import { throwOnInvalid } from "./validation.ts";

/** A sub-app whose request validation failures become the API's 400 and 422 errors (validation.ts). */
export function createApp<E extends HonoEnv>(): OpenAPIHono<E> {
	return new OpenAPIHono<E>({ defaultHook: throwOnInvalid });
}
