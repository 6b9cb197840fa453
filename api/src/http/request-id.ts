import { createMiddleware } from "hono/factory";
import type { AppEnv } from "../deps";
import { withHeaders } from "./node-response";

const ACCEPTED = /^[\w\-=]{1,255}$/;

/** Hono's requestId, with its header set through `withHeaders`: the caller's X-Request-Id when well formed, else a new UUID. */
export const requestId = () =>
  createMiddleware<AppEnv>((c, next) => {
    const asked = c.req.header("x-request-id");
    const id = asked && ACCEPTED.test(asked) ? asked : crypto.randomUUID();
    c.set("requestId", id);
    return withHeaders(c, [["X-Request-Id", id]], next);
  });
