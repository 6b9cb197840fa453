import { createMiddleware } from "hono/factory";
import { getCookie } from "hono/cookie";
import type { AppEnv } from "../deps";
import { errors } from "../http/errors";
import { API_TOKEN_PREFIX, SESSION_COOKIE, hashSecret } from "./secrets";

export interface CurrentUser {
  id: string;
  username: string;
  email: string | null;
  avatarUrl: string | null;
  githubId: string;
  createdAt: Date;
  via: "session" | "token";
  sessionId?: string;
}

/**
 * Resolves the caller from an `Authorization: Bearer` API token or else the session cookie.
 * A request carrying an Authorization header is judged by it alone: an invalid one answers 401
 * and never falls back to the cookie (the CSRF guard exempts bearer requests).
 * Requests without a valid credential answer 401.
 */
export const requireUser = createMiddleware<AppEnv>(async (c, next) => {
  const { db } = c.var.deps;
  const authorization = c.req.header("authorization");
  const bearer = authorization?.match(/^Bearer\s+(\S+)$/i)?.[1];
  const now = new Date();
  let user: CurrentUser | undefined;
  if (authorization !== undefined) {
    if (!bearer?.startsWith(API_TOKEN_PREFIX)) throw errors.unauthorized();
    const row = await db
      .updateTable("api_tokens")
      .set({ last_used_at: now })
      .from("users")
      .whereRef("users.id", "=", "api_tokens.user_id")
      .where("api_tokens.token_hash", "=", hashSecret(bearer))
      .where("api_tokens.revoked_at", "is", null)
      .returning([
        "users.id",
        "users.username",
        "users.email",
        "users.avatar_url",
        "users.github_id",
        "users.created_at",
      ])
      .executeTakeFirst();
    if (row) user = { ...toUser(row), via: "token" };
  } else {
    const cookie = getCookie(c, SESSION_COOKIE);
    if (cookie) {
      const row = await db
        .selectFrom("sessions")
        .innerJoin("users", "users.id", "sessions.user_id")
        .select([
          "sessions.id as session_id",
          "users.id",
          "users.username",
          "users.email",
          "users.avatar_url",
          "users.github_id",
          "users.created_at",
        ])
        .where("sessions.token_hash", "=", hashSecret(cookie))
        .where("sessions.revoked_at", "is", null)
        .where("sessions.expires_at", ">", now)
        .executeTakeFirst();
      if (row) user = { ...toUser(row), via: "session", sessionId: row.session_id };
    }
  }
  if (!user) throw errors.unauthorized();
  c.set("user", user);
  await next();
});

function toUser(r: {
  id: string;
  username: string;
  email: string | null;
  avatar_url: string | null;
  github_id: string;
  created_at: Date;
}) {
  return {
    id: r.id,
    username: r.username,
    email: r.email,
    avatarUrl: r.avatar_url,
    githubId: r.github_id,
    createdAt: r.created_at,
  };
}
