import type { Context } from "hono";
import { createMiddleware } from "hono/factory";
import { getCookie } from "hono/cookie";
import type { AppEnv } from "../deps";
import { AppError, errors } from "../http/errors";
import { apiTokens, sessions } from "@fixloop/db";
import { API_TOKEN_PREFIX, SESSION_COOKIE, hashSecret } from "./secrets";
import type { CurrentUser } from "./auth.types";

export type { CurrentUser } from "./auth.types";

/**
 * The caller from an `Authorization: Bearer` API token or else the session cookie; undefined
 * without a valid credential. A request carrying an Authorization header is judged by it alone:
 * an invalid one answers 401 and never falls back to the cookie (the CSRF guard exempts bearer requests).
 */
export async function resolveUser(c: Context<AppEnv>): Promise<CurrentUser | undefined> {
  // c.get, not c.var: c.var copies every variable into a new object on each read, on every request.
  const { db } = c.get("deps");
  const authorization = c.req.header("authorization");
  const bearer = authorization?.match(/^Bearer\s+(\S+)$/i)?.[1];
  if (authorization !== undefined) {
    if (!bearer?.startsWith(API_TOKEN_PREFIX)) throw errors.unauthorized();
    const owner = await apiTokens.userOf(db, hashSecret(bearer));
    if (!owner) throw errors.unauthorized();
    return { ...owner, via: "token" };
  }
  const cookie = getCookie(c, SESSION_COOKIE);
  const owner = cookie ? await sessions.userOf(db, hashSecret(cookie)) : undefined;
  return owner && { ...owner, via: "session" };
}

/** Resolves the caller (`resolveUser`); requests without a valid credential answer 401. */
export const requireUser = createMiddleware<AppEnv>(async (c, next) => {
  const user = await resolveUser(c);
  if (!user) throw errors.unauthorized();
  c.set("user", user);
  await next();
});

/**
 * After requireUser: only a browser session passes. A leaked or scripted API token must not
 * mint further tokens (outliving its own revocation), list or revoke tokens, or act as an
 * administrator; those answer 403 `auth.session_required` before anything is read or written.
 */
export const requireSession = createMiddleware<AppEnv>(async (c, next) => {
  if (c.var.user.via !== "session")
    throw new AppError(
      403,
      "auth.session_required",
      "API tokens cannot do this: sign in on the web app to manage API tokens or use the operations page",
    );
  await next();
});
