import path from "node:path";
import url from "node:url";
import { Hono } from "hono";
import { requestId } from "hono/request-id";
import type { AppDeps, AppEnv } from "./deps";
import { onError } from "./http/on-error";
import { healthRoutes } from "./health/health.routes";
import { webRoutes } from "./http/static";
import { configRoutes } from "./config/config.routes";
import { authRoutes } from "./auth/auth.routes";
import { tokensRoutes } from "./tokens/tokens.routes";
import { githubRoutes } from "./github/github.routes";
import { issuesRoutes } from "./issues/issues.routes";
import { contributionsRoutes } from "./contributions/contributions.routes";
import { solveRoutes } from "./solve/solve.routes";
import { validationsRoutes } from "./validations/validations.routes";
import { prsRoutes } from "./prs/prs.routes";
import { paymentsRoutes } from "./payments/payments.routes";
import { notificationsRoutes } from "./notifications/notifications.routes";

const DEFAULT_DIST = path.resolve(path.dirname(url.fileURLToPath(import.meta.url)), "../../web/dist");

/** The API routes; their chained type is what the web's typed client is built from. */
export function apiRoutes() {
  // Each feature router declares its full paths (e.g. "/auth/me"); mounted here in one chain for AppType.
  return new Hono<AppEnv>()
    .route("/", healthRoutes)
    .route("/", configRoutes)
    .route("/", authRoutes)
    .route("/", tokensRoutes)
    .route("/", githubRoutes)
    .route("/", issuesRoutes)
    .route("/", contributionsRoutes)
    .route("/", solveRoutes)
    .route("/", validationsRoutes)
    .route("/", prsRoutes)
    .route("/", paymentsRoutes)
    .route("/", notificationsRoutes);
}
export type AppType = ReturnType<typeof apiRoutes>;

/** Builds the whole HTTP app (API under /api, the SPA elsewhere) as a value. */
export function createApp(deps: AppDeps, opts: { serveWeb?: boolean } = {}) {
  const app = new Hono<AppEnv>();
  app.use("*", requestId());
  app.use("*", async (c, next) => {
    c.set("deps", deps);
    const start = performance.now();
    await next();
    if (c.req.path.startsWith("/api/")) {
      deps.logger.debug(
        { requestId: c.var.requestId, method: c.req.method, path: c.req.path, status: c.res.status, ms: Math.round(performance.now() - start) },
        "request",
      );
    }
  });
  app.onError(onError);
  app.route("/api", apiRoutes());
  app.all("/api/*", (c) => c.json({ error: { code: "route.not_found", message: "Not found" } }, 404));
  if (opts.serveWeb !== false) app.route("/", webRoutes(deps.env.WEB_DIST_DIR ?? DEFAULT_DIST));
  return app;
}
