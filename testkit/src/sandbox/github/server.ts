import { canRead } from "./access";
import { appsRoutes } from "./apps.routes";
import { authenticate } from "./apps.service";
import { appsWebRoutes } from "./apps.web";
import { branchesRoutes } from "./branches.routes";
import crypto from "node:crypto";
import { Hono } from "hono";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import { actionsLogsRoutes } from "./actions-logs.routes";
import { archiveRoutes, codeloadRoutes } from "./archive.routes";
import { rawRoutes } from "./contents.routes";
import type { SandboxDeps, SandboxEnv } from "./context";
import { DOCS_URL, GithubError } from "./errors";
import { movedPermanently } from "./http";
import { gitRoutes } from "./git.routes";
import { issuesByIdRoutes, issuesRoutes } from "./issues.routes";
import { issueCommentsRoutes } from "./issue-comments.routes";
import { oauthRoutes } from "./oauth.routes";
import { pullsRoutes } from "./pulls.routes";
import type { FaultRule } from "./rate-limit";
import { reposRoutes } from "./repos.routes";
import { collaboratorsRoutes } from "./collaborators.routes";
import { reviewsRoutes } from "./reviews.routes";
import { pullFilesRoutes } from "./pull-files.routes";
import { usersRoutes } from "./users.routes";
import { webRoutes } from "./web.routes";

const EXPOSE =
  "ETag, Link, Location, Retry-After, X-GitHub-OTP, X-RateLimit-Limit, X-RateLimit-Remaining, X-RateLimit-Used, X-RateLimit-Resource, X-RateLimit-Reset, X-OAuth-Scopes, X-Accepted-OAuth-Scopes, X-Poll-Interval, X-GitHub-Media-Type, X-GitHub-SSO, X-GitHub-Request-Id, Deprecation, Sunset";

const requestId = (): string =>
  [2, 3, 3, 3, 4].map((n) => crypto.randomBytes(n).toString("hex").toUpperCase()).join(":");

function tokenFrom(header: string | undefined): string | null {
  const m = /^(?:token|bearer)\s+(\S+)$/i.exec(header?.trim() ?? "");
  return m?.[1] ?? null;
}

function faultResponse(
  rule: FaultRule,
  id: string,
  login: string | null,
  path = "",
): { status: number; body: object; headers: Record<string, string> } {
  const retryAfter = rule.retryAfter ?? 60;
  if (rule.status === 500) return { status: 500, body: { message: "Server Error" }, headers: {} };
  if (rule.kind === "restricted") {
    const org = /^\/repos\/([^/]+)\//.exec(path)?.[1] ?? "repository's";
    const doc = "https://docs.github.com/articles/restricting-access-to-your-organization-s-data/";
    return {
      status: 403,
      body: {
        message: `Although you appear to have the correct authorization credentials, the \`${org}\` organization has enabled OAuth App access restrictions, meaning that data access to third-parties is limited. For more information on these restrictions, including how to enable this app, visit ${doc}`,
        documentation_url: doc,
      },
      headers: {},
    };
  }
  if (rule.kind === "primary") {
    const who = login ? `for user ID ${login}` : "for 127.0.0.1";
    return {
      status: rule.status,
      body: {
        message: `API rate limit exceeded ${who}. If you reach out to GitHub Support for help, please include the request ID ${id}.`,
        documentation_url: DOCS_URL.rateLimits,
        status: String(rule.status),
      },
      headers: {
        "x-ratelimit-remaining": "0",
        "x-ratelimit-reset": String(Math.floor(Date.now() / 1000) + retryAfter),
      },
    };
  }
  return {
    status: rule.status,
    body: {
      message: `You have exceeded a secondary rate limit. Please wait a few minutes before you try again. If you reach out to GitHub Support for help, please include the request ID ${id}.`,
      documentation_url: `${DOCS_URL.rateLimits}#about-secondary-rate-limits`,
      status: String(rule.status),
    },
    headers: { "retry-after": String(retryAfter) },
  };
}

/** Builds the stand-in as a Hono app value over the given state, git store and controls. */
export function createGithubApp(deps: SandboxDeps): Hono<SandboxEnv> {
  const app = new Hono<SandboxEnv>();

  app.use("*", async (c, next) => {
    const id = requestId();
    const url = new URL(c.req.url);
    const rawToken = tokenFrom(c.req.header("authorization"));
    let who: ReturnType<typeof authenticate> = null;
    let jwtError: GithubError | null = null;
    try {
      who = rawToken ? authenticate(deps.store, rawToken) : null;
    } catch (error) {
      if (!(error instanceof GithubError)) throw error;
      jwtError = error;
    }
    const auth = who?.auth ?? null;
    c.set("requestId", id);
    c.set("auth", auth);
    c.set("app", who?.app ?? null);
    c.set("acceptedScopes", "");
    const bucket = deps.limiter.bucket(auth?.token ?? "anonymous", auth !== null);
    const counted =
      url.pathname !== "/rate_limit" &&
      !url.pathname.startsWith("/login/oauth") &&
      !url.pathname.startsWith("/_codeload/") &&
      !url.pathname.startsWith("/_actions-logs/");
    const fault = url.pathname.startsWith("/login/oauth") ? null : deps.faults.take(url.pathname);
    if (jwtError) {
      c.res = c.json(jwtError.body(), 401);
    } else if (rawToken && !who) {
      c.res = c.json(new GithubError(401, "Bad credentials", "https://docs.github.com/rest").body(), 401);
    } else if (fault) {
      const f = faultResponse(fault, id, auth?.login ?? null, url.pathname);
      c.res = c.json(f.body, f.status as ContentfulStatusCode, f.headers);
    } else if (counted && bucket.used >= bucket.limit) {
      const f = faultResponse(
        { status: 403, kind: "primary", retryAfter: bucket.reset - Math.floor(Date.now() / 1000) },
        id,
        auth?.login ?? null,
      );
      c.res = c.json(f.body, 403, { ...f.headers, "x-ratelimit-reset": String(bucket.reset) });
    } else {
      await next();
    }
    const res = c.res;
    if (res.status >= 200 && res.status < 300 && /json|vnd\.github/.test(res.headers.get("content-type") ?? "")) {
      const body = await res.clone().arrayBuffer();
      const etag = `W/"${crypto.createHash("sha256").update(Buffer.from(body)).digest("hex").slice(0, 64)}"`;
      const match = (c.req.header("if-none-match") ?? "").split(",").map((s) => s.trim().replace(/^W\//, ""));
      if (c.req.method === "GET" && res.status === 200 && match.includes(etag.replace(/^W\//, ""))) {
        c.res = new Response(null, { status: 304, headers: res.headers });
      } else {
        c.res = new Response(body, { status: res.status, headers: res.headers });
      }
      c.res.headers.set("etag", etag);
    }
    if (counted && c.res.status !== 304 && !fault) bucket.used += 1;
    const h = c.res.headers;
    for (const [k, v] of Object.entries(deps.limiter.headers(bucket))) if (!h.has(k)) h.set(k, v);
    if (auth) h.set("x-oauth-scopes", auth.scopes.join(", "));
    h.set("x-accepted-oauth-scopes", c.get("acceptedScopes"));
    h.set("x-github-request-id", id);
    h.set("x-github-media-type", "github.v3; format=json");
    h.set("x-github-api-version-selected", "2022-11-28");
    h.set("access-control-allow-origin", "*");
    h.set("access-control-expose-headers", EXPOSE);
    h.set("vary", "Accept, Authorization, Cookie, X-GitHub-OTP");
    if (c.req.method === "GET") h.set("cache-control", `${auth ? "private" : "public"}, max-age=60, s-maxage=60`);
    const type = h.get("content-type");
    if (type === "application/json" || (!type && c.res.status !== 204 && c.res.status !== 304))
      h.set("content-type", "application/json; charset=utf-8");
    deps.requestLog.push({
      method: c.req.method,
      path: url.pathname + url.search,
      status: c.res.status,
      token: rawToken,
      at: Date.now(),
    });
  });

  app.onError((err, c) => {
    if (err instanceof GithubError) {
      return c.json(err.body(), err.status as ContentfulStatusCode, err.headers);
    }
    deps.log(
      `github sandbox: ${c.req.method} ${c.req.path} failed (${c.get("requestId")}): ${err.stack ?? err.message}`,
    );
    return c.json({ message: "Server Error" }, 500);
  });

  app.notFound((c) =>
    c.json({ message: "Not Found", documentation_url: "https://docs.github.com/rest", status: "404" }, 404),
  );

  // A repository's former name (renamed or transferred since) answers GitHub's 301 to the same
  // sub-path and query under /repositories/{id}, whatever the method; unreadable ones stay 404.
  app.use("/repos/*", async (c, next) => {
    const m = /^\/repos\/([^/]+)\/([^/]+)(\/.*)?$/.exec(c.req.path);
    const moved = m ? deps.store.movedRepo(m[1] ?? "", m[2] ?? "") : undefined;
    if (!moved || !canRead(deps.store, moved, c.get("auth"))) return next();
    const { search } = new URL(c.req.url);
    return movedPermanently(c, `${deps.urls.api}/repositories/${moved.id}${m?.[3] ?? ""}${search}`);
  });

  app.route("/login/oauth", oauthRoutes(deps));
  app.route("/", usersRoutes(deps));
  app.route("/", appsRoutes(deps));
  app.route("/repos/:owner/:repo", reposRoutes(deps));
  app.route("/repos/:owner/:repo", branchesRoutes(deps));
  app.route("/repos/:owner/:repo", collaboratorsRoutes(deps));
  app.route("/repos/:owner/:repo", issuesRoutes(deps));
  app.route("/repos/:owner/:repo", issueCommentsRoutes(deps));
  app.route("/repositories/:id{[0-9]+}", issuesByIdRoutes(deps));
  app.route("/repos/:owner/:repo", pullsRoutes(deps));
  app.route("/repos/:owner/:repo", reviewsRoutes(deps));
  app.route("/repos/:owner/:repo", pullFilesRoutes(deps));
  app.route("/repos/:owner/:repo/git", gitRoutes(deps));
  app.route("/repos/:owner/:repo", archiveRoutes(deps));
  app.route("/_codeload", codeloadRoutes(deps));
  app.route("/_actions-logs", actionsLogsRoutes(deps));
  app.route("/raw", rawRoutes(deps));
  app.route("/", appsWebRoutes(deps));
  // Last: the web pages behind html_url must never shadow a REST route.
  app.route("/", webRoutes(deps));
  return app;
}
