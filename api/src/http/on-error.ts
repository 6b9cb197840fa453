import type { Context } from "hono";
import { HTTPException } from "hono/http-exception";
import type { AppEnv } from "../deps";
import { AppError } from "./errors";

/** The one place errors become responses: `{error:{code,message}}`; unknown errors are logged and answer 500 without internals. */
export function onError(err: Error, c: Context<AppEnv>) {
  if (err instanceof AppError) {
    if (err.headers) for (const [k, v] of Object.entries(err.headers)) c.header(k, v);
    return c.json({ error: { code: err.code, message: err.message } }, err.status);
  }
  if (err instanceof HTTPException) {
    const status = err.status;
    const code = status === 413 ? "request.too_large" : status === 401 ? "auth.unauthorized" : "request.invalid";
    return c.json({ error: { code, message: err.message || "Invalid request" } }, status);
  }
  if (err instanceof SyntaxError) {
    return c.json({ error: { code: "request.invalid_json", message: "Malformed JSON body" } }, 400);
  }
  if ((err as { code?: string }).code === "23505") {
    // A unique violation that a feature did not map itself: a conflict, without the constraint's name.
    c.var.deps?.logger.warn({ err, requestId: c.var.requestId, path: c.req.path }, "unique violation");
    return c.json(
      { error: { code: "request.conflict", message: "This conflicts with data that already exists" } },
      409,
    );
  }
  const unavailable = isUnavailable(err);
  c.var.deps?.logger.error({ err, requestId: c.var.requestId, path: c.req.path }, "request failed");
  if (unavailable) {
    return c.json(
      { error: { code: "service.unavailable", message: "A backing service is unavailable, try again shortly" } },
      503,
    );
  }
  return c.json({ error: { code: "internal", message: "Something went wrong" } }, 500);
}

function isUnavailable(err: unknown): boolean {
  const e = err as { code?: string; message?: string };
  return (
    e.code === "ECONNREFUSED" ||
    e.code === "57P01" ||
    e.code === "57P03" ||
    /Connection terminated|connect ECONNREFUSED|Connection is closed|timeout exceeded when trying to connect/i.test(
      e.message ?? "",
    )
  );
}
