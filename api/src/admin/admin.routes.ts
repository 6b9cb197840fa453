import { Hono } from "hono";
import { createMiddleware } from "hono/factory";
import { createBullBoard } from "@bull-board/api";
import { BullMQAdapter } from "@bull-board/api/bullMQAdapter";
import { HonoAdapter } from "@bull-board/hono";
import { serveStatic } from "@hono/node-server/serve-static";
import type { AppDeps, AppEnv } from "../deps";
import { requireSession, requireUser } from "../auth/auth.middleware";
import { AppError } from "../http/errors";
import { isAdmin } from "../ops/ops.admin";
import { bindMetricsSource } from "./metrics.collect";
import { bindClusterMetrics } from "./metrics.cluster";
import { metricsRegistry } from "./metrics.registry";

const BOARD_PATH = "/admin/queues";

/** bull-board's page links a Google Fonts stylesheet: dropped, so the board stays offline and inside our CSP (system fonts). */
const EXTERNAL_STYLESHEET = /<link[^>]+href="https:\/\/fonts\.googleapis\.com[^"]*"[^>]*>\s*/g;

const adminOnly = () =>
  createMiddleware<AppEnv>(async (c, next) => {
    if (!(await isAdmin(c.var.deps, c.var.user))) throw new AppError(404, "route.not_found", "Not found");
    await next();
    if (!c.res.headers.get("content-type")?.startsWith("text/html")) return;
    const html = (await c.res.text()).replace(EXTERNAL_STYLESHEET, "");
    const headers = new Headers(c.res.headers);
    headers.delete("content-length");
    c.res = new Response(html, { status: c.res.status, headers });
  });

/**
 * bull-board for the GitHub logins in ADMIN_GITHUB_LOGINS signed in on the web (others get 404, an
 * API token 403 `auth.session_required`), and Prometheus /metrics.
 */
export function adminRoutes(deps: AppDeps) {
  bindMetricsSource(deps);
  bindClusterMetrics({ redis: deps.redis, prefix: deps.queues.prefix });
  const board = new HonoAdapter(serveStatic);
  // @bull-board/hono 9.10.1 types lag @bull-board/api 9.10.2; the runtime contract is the same.
  createBullBoard({
    queues: deps.queues.all().map((q) => new BullMQAdapter(q)),
    serverAdapter: board as unknown as Parameters<typeof createBullBoard>[0]["serverAdapter"],
  });
  board.setBasePath(BOARD_PATH);

  return new Hono<AppEnv>()
    .use(`${BOARD_PATH}/*`, requireUser, requireSession, adminOnly())
    .use(BOARD_PATH, requireUser, requireSession, adminOnly())
    .route(BOARD_PATH, board.registerPlugin())
    .get("/metrics", async (c) => {
      const token = deps.env.METRICS_TOKEN;
      if (token && c.req.header("authorization") !== `Bearer ${token}`)
        throw new AppError(401, "auth.unauthorized", "Authentication required");
      return c.text(await metricsRegistry.metrics(), 200, { "content-type": metricsRegistry.contentType });
    });
}
