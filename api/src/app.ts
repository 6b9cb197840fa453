import path from "node:path";
import url from "node:url";
import { Hono } from "hono";
import { bodyLimit } from "hono/body-limit";
import { AppError } from "./http/errors";
import { requestId } from "./http/request-id";
import { securityHeaders, sameOriginGuard } from "./http/security";
import { canonicalLoopbackHost } from "./http/canonical-host";
import { parseRateRules, rateLimit, type RateRule } from "./http/rate-limit";
import type { AppDeps, AppEnv } from "./deps";
import { onError } from "./http/on-error";
import { healthRoutes } from "./health/health.routes";
import { webRoutes } from "./http/static";
import { adminRoutes } from "./admin/admin.routes";
import { configRoutes } from "./config/config.routes";
import { authRoutes } from "./auth/auth.routes";
import { tokensRoutes } from "./tokens/tokens.routes";
import { githubAppRoutes } from "./github/github.app.routes";
import { githubRoutes } from "./github/github.routes";
import { labelTriggerRoutes } from "./label-trigger/label-trigger.routes";
import { testSettingsRoutes } from "./github/test-settings.routes";
import { backtestsRoutes } from "./backtests/backtests.routes";
import { issuesRoutes } from "./issues/issues.routes";
import { contributionsRoutes } from "./contributions/contributions.routes";
import { costsRoutes } from "./costs/costs.routes";
import { solveRoutes } from "./solve/solve.routes";
import { solutionsRoutes } from "./solutions/solutions.routes";
import { prsRoutes } from "./prs/prs.routes";
import { paymentsRoutes } from "./payments/payments.routes";
import { notificationsRoutes } from "./notifications/notifications.routes";
import { settingsRoutes } from "./settings/settings.routes";
import { opsRoutes } from "./ops/ops.routes";
import { webhooksRoutes } from "./webhooks/webhooks.routes";

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
    .route("/", githubAppRoutes)
    .route("/", testSettingsRoutes)
    .route("/", labelTriggerRoutes)
    .route("/", backtestsRoutes)
    .route("/", issuesRoutes)
    .route("/", contributionsRoutes)
    .route("/", solveRoutes)
    .route("/", costsRoutes)
    .route("/", solutionsRoutes)
    .route("/", prsRoutes)
    .route("/", paymentsRoutes)
    .route("/", notificationsRoutes)
    .route("/", settingsRoutes)
    .route("/", opsRoutes)
    .route("/", webhooksRoutes);
}
export type AppType = ReturnType<typeof apiRoutes>;

/** Builds the whole HTTP app (API under /api, the SPA elsewhere) as a value. */
export function createApp(deps: AppDeps, opts: { serveWeb?: boolean } = {}) {
  const app = new Hono<AppEnv>();
  app.use("*", requestId());
  // The level is fixed at start: a disabled debug line costs no object per request.
  const debug = deps.logger.isLevelEnabled("debug");
  app.use("*", async (c, next) => {
    c.set("deps", deps);
    const start = performance.now();
    await next();
    if (debug && c.req.path.startsWith("/api/")) {
      deps.logger.debug(
        {
          requestId: c.get("requestId"),
          method: c.req.method,
          path: c.req.path,
          status: c.res.status,
          ms: Math.round(performance.now() - start),
        },
        "request",
      );
    }
  });
  app.onError(onError);
  installGuards(app, deps);
  app.route("/api", apiRoutes());
  app.all("/api/*", (c) => c.json({ error: { code: "route.not_found", message: "Not found" } }, 404));
  app.route("/", adminRoutes(deps));
  if (opts.serveWeb !== false) app.route("/", webRoutes(deps.env.WEB_DIST_DIR ?? DEFAULT_DIST));
  return app;
}

const DEFAULT_RATE_RULES: Record<string, RateRule> = {
  signin: { name: "signin", limit: 30, windowSeconds: 60 },
  generate: { name: "generate", limit: 30, windowSeconds: 60 },
  import: { name: "import", limit: 30, windowSeconds: 60 },
  payments: { name: "payments", limit: 30, windowSeconds: 60 },
  tokens: { name: "tokens", limit: 20, windowSeconds: 60 },
};

/** Cross-cutting protections: headers, CSRF, body size limits (checked before parsing) and abuse limits. */
function installGuards(app: Hono<AppEnv>, deps: AppDeps) {
  const { env } = deps;
  const publicUrl = env.PUBLIC_URL ?? `http://localhost:${env.PORT}`;
  const { RAZORPAY_CHECKOUT_URL: checkoutUrl, RAZORPAY_API_URL: paymentApiUrl } = env as {
    RAZORPAY_CHECKOUT_URL?: string;
    RAZORPAY_API_URL?: string;
  };
  // Avatars: GitHub's avatar host, and the GitHub (or stand-in) host itself.
  const imageHosts = [env.GITHUB_WEB_URL, env.GITHUB_API_URL].map((u) => new URL(u).origin);
  // The GitHub App manifest flow (/ops/github-app) posts its manifest to GitHub's web host.
  const formHosts = [new URL(env.GITHUB_WEB_URL).origin];
  app.use("*", securityHeaders({ publicUrl, checkoutUrl, paymentApiUrl, imageHosts, formHosts }));
  app.use("*", canonicalLoopbackHost(env.PUBLIC_URL));
  app.use(
    "/api/*",
    sameOriginGuard({
      publicUrl,
      exempt: [/^\/api\/payments\/webhook$/, /^\/api\/github\/webhook$/],
      always: [/^\/api\/auth\/session$/],
      // Listing repositories syncs them, listing a repository's issues imports them (spec §7 keeps both GETs).
      reads: [/^\/api\/github\/repositories$/, /^\/api\/github\/repositories\/[^/]+\/[^/]+\/issues$/],
    }),
  );
  const tooLarge = (max: number) => () => {
    throw new AppError(413, "request.too_large", `Request body exceeds ${max} bytes`);
  };
  const editPath = /^\/api\/validations\/[^/]+\/modify$/;
  const jsonLimit = bodyLimit({ maxSize: env.MAX_JSON_BODY_BYTES, onError: tooLarge(env.MAX_JSON_BODY_BYTES) });
  const editLimit = bodyLimit({ maxSize: env.MAX_EDIT_BODY_BYTES, onError: tooLarge(env.MAX_EDIT_BODY_BYTES) });
  // A GET or HEAD carries no body Hono reads; asking for one (`c.req.raw.body`) made node-server
  // build a full fetch Request for every read, a quarter of a small read's time under load.
  app.use("/api/*", (c, next) => {
    if (c.req.method === "GET" || c.req.method === "HEAD") return next();
    return editPath.test(c.req.path) ? editLimit(c, next) : jsonLimit(c, next);
  });
  if (!env.RATE_LIMITS_ENABLED) return;
  const rules = parseRateRules(env.RATE_LIMITS, DEFAULT_RATE_RULES);
  const at = (name: string) => rateLimit(rules[name] ?? (DEFAULT_RATE_RULES[name] as RateRule));
  for (const p of ["/api/auth/github", "/api/auth/github/callback", "/api/auth/session"]) app.use(p, at("signin"));
  // A refinement is a model run too: it shares generate's budget.
  const generate = at("generate");
  app.post("/api/ai/generate-solution", generate);
  app.post("/api/validations/:id/refine", generate);
  app.post("/api/contributions/*", at("import"));
  app.post("/api/payments/create-order", at("payments"));
  app.post("/api/payments/verify-payment", at("payments"));
  app.post("/api/tokens", at("tokens"));
}
