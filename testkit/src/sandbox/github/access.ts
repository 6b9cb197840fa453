import type { Context } from "hono";
import type { SandboxDeps, SandboxEnv } from "./context";
import { DOCS_URL, githubErrors } from "./errors";
import { roleOf } from "./orgs";
import { permissionsFor } from "./repos.payloads";
import type { RepoRecord, StateStore, TokenRecord } from "./state";

type Ctx = Context<SandboxEnv>;

export const WRITE_SCOPES = ["public_repo", "repo"];

export function hasScope(token: TokenRecord | null, ...scopes: string[]): boolean {
  return token !== null && token.scopes.some((s) => scopes.includes(s));
}

export function requireUser(c: Ctx, doc = DOCS_URL.users): TokenRecord {
  const auth = c.get("auth");
  if (!auth) throw githubErrors.requiresAuth(doc);
  return auth;
}

export const viewerOf = (c: Ctx): string | null => c.get("auth")?.login ?? null;

/** Whether the request's token may see `repo` at all (private repos need the `repo` scope and any role on it). */
export function canRead(store: StateStore, repo: RepoRecord, token: TokenRecord | null): boolean {
  if (!repo.private) return true;
  if (token?.installation) return token.installation.repoIds.includes(repo.id);
  if (!hasScope(token, "repo") || !token) return false;
  return roleOf(store, repo, token.login) !== null;
}

/** Finds a repository the caller may read; anything else is a 404, as on GitHub. */
export function readableRepo(deps: SandboxDeps, c: Ctx, doc = DOCS_URL.repos): RepoRecord {
  const owner = c.req.param("owner") ?? "";
  const name = c.req.param("repo") ?? "";
  c.set("acceptedScopes", "repo");
  const repo = deps.store.repo(owner, name);
  if (!repo || !canRead(deps.store, repo, c.get("auth"))) throw githubErrors.notFound(doc);
  return repo;
}

/** A repository the caller may write to: scope missing → 404, push permission missing → 403. */
export function writableRepo(
  deps: SandboxDeps,
  c: Ctx,
  doc = DOCS_URL.repos,
  permission: AppPermission = "contents",
): { repo: RepoRecord; token: TokenRecord } {
  const token = requireUser(c, doc);
  const repo = readableRepo(deps, c, doc);
  requireWriteScope(c, token, repo, doc, permission);
  if (!token.installation && !permissionsFor(deps.store, repo, token.login).push) {
    throw githubErrors.forbidden(`Permission to ${repo.owner}/${repo.name}.git denied to ${token.login}.`, doc);
  }
  return { repo, token };
}

/** An App permission a write needs from an installation token. */
export type AppPermission = "contents" | "pull_requests" | "issues";

/**
 * An installation token writes only to the repositories it was issued for, with the permission the
 * endpoint needs (GitHub's 403 "Resource not accessible by integration"); user tokens pass.
 */
export function requireIntegrationWrite(token: TokenRecord, repo: RepoRecord, permission: AppPermission, doc: string) {
  const inst = token.installation;
  if (inst && (!inst.repoIds.includes(repo.id) || inst.permissions[permission] !== "write"))
    throw githubErrors.forbidden("Resource not accessible by integration", doc);
}

export function requireWriteScope(
  c: Ctx,
  token: TokenRecord,
  repo: RepoRecord,
  doc: string,
  permission: AppPermission = "contents",
): void {
  c.set("acceptedScopes", "public_repo, repo");
  if (token.installation) return requireIntegrationWrite(token, repo, permission, doc);
  const ok = repo.private ? hasScope(token, "repo") : hasScope(token, ...WRITE_SCOPES);
  if (!ok) throw githubErrors.notFound(doc);
}
