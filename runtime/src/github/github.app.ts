import { createAppAuth } from "@octokit/auth-app";
import { Octokit } from "@octokit/rest";
import { installations, type Db, type TokenCipher } from "@fixloop/db";
import type { Logger } from "pino";
import { githubForUser } from "./github.account";
import { createGithubClient, type GithubClient } from "./github.client";
import { GithubError } from "./github.errors";
import { githubApp, type GithubAppCredentials, type GithubAppEnv } from "./github.app-config";

/** Octokit authenticated as the App itself (a JWT per request), for the /app endpoints. */
export function appOctokit(app: GithubAppCredentials, baseUrl: string): Octokit {
  return new Octokit({
    authStrategy: createAppAuth,
    auth: { appId: app.appId, privateKey: app.privateKey },
    baseUrl: baseUrl.replace(/\/+$/, ""),
    userAgent: "fixloop",
    log: { debug: () => {}, info: () => {}, warn: () => {}, error: () => {} },
  });
}

/** What a write job may do with its token: the least each needs. */
export const INSTALLATION_PERMISSIONS = {
  /** Branches, commits and the pull request (and reading its issue). */
  pullRequest: { contents: "write", pull_requests: "write", issues: "read", metadata: "read" },
  /** Comments and labels on issues. */
  issue: { issues: "write", metadata: "read" },
} as const satisfies Record<string, Record<string, "read" | "write">>;

export interface GithubRepositoryContext {
  db: Db;
  cipher: TokenCipher;
  env: { GITHUB_API_URL: string } & GithubAppEnv;
  logger?: Logger;
}

export interface GithubForRepository {
  client: GithubClient;
  /** Who writes: the App's bot (`{slug}[bot]`), or the user. */
  login: string;
  /** Set when the App's installation writes. */
  installationId: number | null;
}

export const suspendedError = (account: string) =>
  new GithubError(
    "github.installation_suspended",
    `Fixloop's GitHub App installation on ${account} is suspended, so Fixloop cannot work on its repositories; an owner of ${account} can unsuspend it in GitHub's settings (Applications → Installed GitHub Apps)`,
    403,
  );

/**
 * A client for writes to repository `githubId` (named `fullName` now) on behalf of `userId`: through the App's installation on it
 * (a token minted for this job, narrowed to this one repository and `permissions`, never stored),
 * or, for a user who has not installed the App (or when no App is configured), the user's own
 * OAuth grant as before. A suspended installation refuses with `github.installation_suspended`.
 */
export async function githubForRepository(
  ctx: GithubRepositoryContext,
  userId: string,
  repo: { fullName: string; githubId: string | number },
  permissions: Record<string, "read" | "write">,
): Promise<GithubForRepository> {
  const app = await githubApp(ctx);
  const [owner = ""] = repo.fullName.split("/");
  const inst = app ? await installations.forRepository(ctx.db, userId, { githubId: repo.githubId, owner }) : undefined;
  if (!app || !inst) {
    const gh = await githubForUser(ctx, userId);
    return { client: gh.client, login: gh.login, installationId: null };
  }
  if (inst.suspended_at) throw suspendedError(inst.account_login);
  const [, name = ""] = repo.fullName.split("/");
  const installationId = Number(inst.installation_id);
  const client = createGithubClient({
    baseUrl: ctx.env.GITHUB_API_URL,
    logger: ctx.logger,
    app: { appId: app.appId, privateKey: app.privateKey, installationId, repositoryNames: [name], permissions },
  });
  return { client, login: `${app.slug}[bot]`, installationId };
}

/**
 * Reads an installation's repositories from GitHub, as the App (metadata: read), and stores them
 * as the installation's list; returns them.
 */
export async function refreshInstallationRepositories(
  deps: { db: Db; logger: Logger; githubApiUrl: string },
  app: GithubAppCredentials,
  installationId: number,
) {
  const client = createGithubClient({
    baseUrl: deps.githubApiUrl,
    logger: deps.logger,
    app: { appId: app.appId, privateKey: app.privateKey, installationId, permissions: { metadata: "read" } },
  });
  const repos = await client.paginate(client.rest.apps.listReposAccessibleToInstallation, { per_page: 100 });
  await installations.setRepositories(
    deps.db,
    installationId,
    repos.map((r) => ({ githubId: r.id, fullName: r.full_name })),
  );
  return repos;
}
