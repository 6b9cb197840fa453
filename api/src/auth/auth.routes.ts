import { Hono, type Context } from "hono";
import type { AppEnv } from "../deps";
import { AppError, errors } from "../http/errors";
import { validate } from "../http/validate";
import { requireUser, resolveUser } from "./auth.middleware";
import { sessions, users } from "@fixloop/db";
import { consumeLoginCode, createOauthState, createSession } from "./auth.credentials";
import { CallbackQuery, ReposAuthQuery, SessionRequest, userView } from "./auth.schemas";
import { completeOauth, type CallbackOutcome } from "./auth.service";
import {
  clearSessionCookie,
  publicUrl,
  setLoginCookie,
  setSessionCookie,
  setStateCookie,
  takeLoginCookie,
  takeStateCookie,
} from "./auth.cookies";
import { SIGNIN_SCOPES, authorizeUrl } from "./oauth.client";
import { isAdmin } from "../ops/ops.admin";

const wantsJson = (c: Context<AppEnv>) => {
  const accept = c.req.header("accept") ?? "";
  return accept.includes("application/json") && !accept.includes("text/html");
};

function answerCallback(c: Context<AppEnv>, out: CallbackOutcome) {
  const base = publicUrl(c);
  if (out.ok) {
    if (out.purpose === "repos") return c.redirect(`${base}/repositories?authorized=true`, 302);
    return c.redirect(`${base}/auth/callback?token=${encodeURIComponent(out.loginCode)}`, 302);
  }
  if (wantsJson(c)) throw new AppError(400, out.code, out.message);
  const page = out.purpose === "repos" ? "/repositories" : "/auth";
  return c.redirect(`${base}${page}?error=${encodeURIComponent(out.code)}`, 302);
}

export const authRoutes = new Hono<AppEnv>()
  .get("/auth/github", async (c) => {
    const { db, env } = c.var.deps;
    const { state, binding } = await createOauthState(db, "signin", SIGNIN_SCOPES, null);
    setStateCookie(c, binding);
    return c.redirect(authorizeUrl(env, publicUrl(c), state, SIGNIN_SCOPES), 302);
  })
  .get("/auth/github/repos", requireUser, validate("query", ReposAuthQuery), async (c) => {
    const { db, env } = c.var.deps;
    const scopes = [...SIGNIN_SCOPES, c.req.valid("query").private === "true" ? "repo" : "public_repo"];
    const { state, binding } = await createOauthState(db, "repos", scopes, c.var.user.id);
    setStateCookie(c, binding);
    return c.redirect(authorizeUrl(env, publicUrl(c), state, scopes), 302);
  })
  .get("/auth/github/callback", validate("query", CallbackQuery), async (c) => {
    const binding = takeStateCookie(c);
    const out = await completeOauth(c.var.deps, publicUrl(c), c.req.valid("query"), binding);
    if (out.ok && out.purpose === "signin" && binding) setLoginCookie(c, binding);
    return answerCallback(c, out);
  })
  .post("/auth/session", validate("json", SessionRequest), async (c) => {
    const { db, env } = c.var.deps;
    const binding = takeLoginCookie(c);
    const userId = binding ? await consumeLoginCode(db, c.req.valid("json").token, binding) : null;
    if (!userId)
      throw new AppError(401, "auth.invalid_code", "The sign-in code is invalid, used or expired; sign in again");
    const user = await users.find(db, userId);
    if (!user) throw errors.unauthorized();
    const token = await createSession(db, userId, env.SESSION_TTL_DAYS, c.req.header("user-agent") ?? null);
    setSessionCookie(c, token, env.SESSION_TTL_DAYS);
    return c.json({
      user: userView(user, await isAdmin(c.var.deps, { username: user.username, githubId: user.github_id })),
    });
  })
  .get("/auth/me", requireUser, async (c) =>
    c.json({ user: userView(c.var.user, await isAdmin(c.var.deps, c.var.user)) }),
  )
  /**
   * Who is signed in, or `{ user: null }` (200): the web app asks on every page, and a signed-out
   * visitor is no error (`/auth/me`'s 401 showed in every anonymous page's console).
   */
  .get("/auth/session", async (c) => {
    const user = await resolveUser(c);
    return c.json({ user: user ? userView(user, await isAdmin(c.var.deps, user)) : null });
  })
  .post("/auth/logout", requireUser, async (c) => {
    if (c.var.user.sessionId) await sessions.revoke(c.var.deps.db, c.var.user.sessionId);
    clearSessionCookie(c);
    return c.json({ success: true });
  });
