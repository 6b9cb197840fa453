import { createMiddleware } from "hono/factory";
import type { AppEnv } from "../deps";
import type { ApiEnv } from "../env";
import { opsErrors } from "./ops.errors";

/** Whether `username` is one of ADMIN_GITHUB_LOGINS (GitHub logins compare case-insensitively). */
export function isAdmin(env: Pick<ApiEnv, "ADMIN_GITHUB_LOGINS">, username: string): boolean {
  const login = username.toLowerCase();
  return env.ADMIN_GITHUB_LOGINS.some((l) => l.toLowerCase() === login);
}

/** After requireUser: anyone but an admin gets 403 `ops.forbidden`. */
export const requireAdmin = createMiddleware<AppEnv>(async (c, next) => {
  if (!isAdmin(c.var.deps.env, c.var.user.username)) throw opsErrors.forbidden();
  await next();
});
