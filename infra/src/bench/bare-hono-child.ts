import { serve } from "@hono/node-server";
import { Hono } from "hono";
import { getCookie } from "hono/cookie";
import { createDb, runs, sessions, steps } from "@fixloop/db";
import { SESSION_COOKIE, hashSecret, issueListPage, presentRun, runActionsOf } from "@fixloop/api/views";

// Baseline for the API section: a bare Hono app on @hono/node-server running the same SQL as the
// product routes (session lookup, then the listing or the run with its steps), without middleware.
// The listing is the route's own function, with its kept pages: the same SQL as the product.
const db = createDb(process.env.DATABASE_URL ?? "", { max: 20 });

async function userOf(cookie: string | undefined): Promise<string | undefined> {
  return cookie ? (await sessions.userOf(db, hashSecret(cookie)))?.id : undefined;
}

const app = new Hono()
  .get("/api/issues", async (c) => {
    const userId = await userOf(getCookie(c, SESSION_COOKIE));
    if (!userId) return c.json({}, 401);
    // The route's own read: the list's version, then the kept page or a fresh read of it.
    const page = await issueListPage(db, userId, {});
    return c.body(page.body, 200, { "Content-Type": "application/json", ETag: page.etag });
  })
  .get("/api/runs/:id", async (c) => {
    const userId = await userOf(getCookie(c, SESSION_COOKIE));
    if (!userId) return c.json({}, 401);
    const run = await runs.findOwned(db, userId, c.req.param("id"));
    if (!run) return c.json({}, 404);
    const [stored, actions] = await Promise.all([steps.listForView(db, run.id), runActionsOf(db, run)]);
    return c.json({ run: presentRun(run, stored, null, actions) });
  });

const server = serve({ fetch: app.fetch, port: 0, hostname: "127.0.0.1" }, (info) =>
  process.send?.({ url: `http://127.0.0.1:${info.port}` }),
);
process.on("disconnect", () => {
  server.close();
  void db.destroy().finally(() => process.exit(0));
});
