import type { HttpBindings } from "@hono/node-server";
import type { Context } from "hono";

/**
 * Sets response headers that do not depend on the answer, before the handler runs.
 *
 * Served by @hono/node-server, they go on Node's response, which merges them into whatever the
 * handler answers (the handler's own value of a header wins). Set through Hono instead (`c.header`,
 * or on the finished `c.res`), they turn the answer's plain header object into a fetch `Headers`:
 * on a small read that cost as much as the rest of the middleware together. In-process
 * (`app.request`, no Node response) they are set after the handler, as Hono does.
 */
export async function withHeaders(c: Context, headers: [string, string][], next: () => Promise<void>): Promise<void> {
  const outgoing = (c.env as Partial<HttpBindings> | undefined)?.outgoing;
  if (outgoing && !outgoing.headersSent) {
    for (const [name, value] of headers) outgoing.setHeader(name, value);
    return next();
  }
  await next();
  for (const [name, value] of headers) c.res.headers.set(name, value);
}
