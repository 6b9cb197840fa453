import { createMiddleware } from "hono/factory";
import { adminBindings } from "@fixloop/db";
import type { AppDeps, AppEnv } from "../deps";
import type { CurrentUser } from "../auth/auth.types";
import { opsErrors } from "./ops.errors";

/**
 * Whether the user is an administrator: their GitHub login is in ADMIN_GITHUB_LOGINS (compared
 * case-insensitively) and it is still held by the GitHub account that held it when an
 * administrator first signed in with it. GitHub frees a login when its account is renamed or
 * deleted, and anyone may then take it: that account is no administrator (the operator lists its
 * new login, or removes the binding, to change that).
 */
export async function isAdmin(
  deps: Pick<AppDeps, "db" | "env" | "logger">,
  user: Pick<CurrentUser, "username" | "githubId">,
): Promise<boolean> {
  const login = user.username.toLowerCase();
  if (!deps.env.ADMIN_GITHUB_LOGINS.some((l) => l.toLowerCase() === login)) return false;
  const bound = await adminBindings.bind(deps.db, login, user.githubId);
  if (bound === String(user.githubId)) return true;
  deps.logger.warn(
    { login, githubId: user.githubId, boundTo: bound },
    "an administrator login is held by another GitHub account than the one first seen with it: not an administrator",
  );
  return false;
}

/** After requireUser: anyone but an admin gets 403 `ops.forbidden`. */
export const requireAdmin = createMiddleware<AppEnv>(async (c, next) => {
  if (!(await isAdmin(c.var.deps, c.var.user))) throw opsErrors.forbidden();
  await next();
});
