import { Hono } from "hono";
import { parse } from "hono/utils/cookie";
import { z } from "zod";
import { githubAppConfigs } from "@fixloop/db";
import { appFromEnv, githubApp } from "@fixloop/runtime";
import type { AppEnv } from "../deps";
import { githubUserContext } from "../auth/auth.cipher";
import { publicUrl } from "../auth/auth.cookies";
import { SESSION_COOKIE } from "../auth/secrets";
import { errors } from "../http/errors";
import { validate } from "../http/validate";
import { githubAppErrors } from "./github-app.errors";
import { AppName, OrgLogin, appManifest, completeManifestFlow, startManifestFlow } from "./github-app.manifest";

const StartBody = z.object({ name: AppName, organization: OrgLogin.optional() });
// GitHub's codes are short tokens; anything else (a path, say) never reaches GitHub's conversion URL.
const CallbackQuery = z.object({
  code: z
    .string()
    .regex(/^[A-Za-z0-9_-]{1,100}$/, "must be the code GitHub sent")
    .optional(),
  state: z.string().max(200).optional(),
});

/** The session cookie of the request (requireSession already passed, so it is there). */
function sessionToken(cookieHeader: string | undefined): string {
  const token = cookieHeader ? parse(cookieHeader, SESSION_COOKIE)[SESSION_COOKIE] : undefined;
  if (!token) throw errors.unauthorized();
  return token;
}

/**
 * `/ops/github-app`: Fixloop's GitHub App for the operator (mounted under /ops, so administrators
 * in a browser session only). What is in use and where it came from, the manifest flow's start
 * (the form the browser posts to GitHub) and GitHub's redirect back. No answer carries a secret.
 */
export const githubAppSetupRoutes = new Hono<AppEnv>()
  .get("/", async (c) => {
    const deps = c.var.deps;
    const env = appFromEnv(deps.env);
    const stored = await githubAppConfigs.newestPublic(deps.db);
    const inUse = await githubApp(githubUserContext(deps));
    const source = !inUse
      ? null
      : env && inUse.appId === env.appId && inUse.privateKey === env.privateKey
        ? "env"
        : "stored";
    const web = deps.env.GITHUB_WEB_URL.replace(/\/+$/, "");
    return c.json({
      source,
      precedence: deps.env.GITHUB_APP_PRECEDENCE,
      inUse: inUse ? { appId: inUse.appId, slug: inUse.slug } : null,
      env: env ? { appId: env.appId, slug: env.slug } : null,
      stored: stored
        ? {
            appId: stored.app_id,
            slug: stored.slug,
            name: stored.name,
            owner: stored.owner_login,
            htmlUrl: stored.html_url,
            createdAt: stored.created_at.toISOString(),
            createdBy: stored.created_by_login,
          }
        : null,
      githubWebUrl: web,
      manifest: appManifest(publicUrl(c), "Fixloop"),
    });
  })
  .post("/manifest", validate("json", StartBody), async (c) => {
    const body = c.req.valid("json");
    const out = await startManifestFlow(c.var.deps, {
      userId: c.var.user.id,
      sessionToken: sessionToken(c.req.header("cookie")),
      publicUrl: publicUrl(c),
      name: body.name,
      ...(body.organization ? { organization: body.organization } : {}),
    });
    return c.json(out);
  })
  .get("/manifest/callback", validate("query", CallbackQuery), async (c) => {
    const q = c.req.valid("query");
    if (!q.code || !q.state) throw githubAppErrors.missingParams();
    const out = await completeManifestFlow(
      c.var.deps,
      {
        userId: c.var.user.id,
        username: c.var.user.username,
        sessionToken: sessionToken(c.req.header("cookie")),
        requestId: c.var.requestId,
      },
      { code: q.code, state: q.state },
    );
    const back = new URLSearchParams(
      out.ok
        ? { created: out.slug }
        : { error: out.reason, ...(out.slug ? { slug: out.slug } : {}), ...(out.org ? { org: out.org } : {}) },
    );
    return c.redirect(`${publicUrl(c)}/ops/github-app?${back.toString()}`, 302);
  });
