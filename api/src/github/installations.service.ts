import { installations } from "@fixloop/db";
import { appOctokit, githubApp, refreshInstallationRepositories } from "@fixloop/runtime";
import { githubUserContext } from "../auth/auth.cipher";
import type { AppDeps } from "../deps";
import { AppError } from "../http/errors";

export const installationErrors = {
  notConfigured: () =>
    new AppError(
      404,
      "github_app.not_configured",
      "No GitHub App is configured; repository access uses the OAuth grant",
    ),
  unknownInstallation: () =>
    new AppError(404, "github_app.installation_not_found", "GitHub knows no installation of Fixloop's App by that id"),
};

/**
 * Reads an installation from GitHub as the App (never trusting the id a browser brings back),
 * stores it with the repositories it reaches, and links it to `user` when GitHub names them for
 * it: the personal account it is on is theirs, or they installed it (known from the signed
 * `installation` webhook). Returns whether the user is now linked to it.
 */
export async function adoptInstallation(
  deps: AppDeps,
  installationId: number,
  user: { id: string; githubId: string },
): Promise<boolean> {
  const app = await githubApp(githubUserContext(deps));
  if (!app) throw installationErrors.notConfigured();
  let inst;
  try {
    inst = (
      await appOctokit(app, deps.env.GITHUB_API_URL).rest.apps.getInstallation({ installation_id: installationId })
    ).data;
  } catch (err) {
    if ((err as { status?: number }).status === 404) throw installationErrors.unknownInstallation();
    throw err;
  }
  const account = inst.account && "login" in inst.account ? inst.account : null;
  if (!account) throw installationErrors.unknownInstallation();
  await installations.save(deps.db, {
    installationId,
    accountLogin: account.login,
    accountId: account.id,
    accountType: inst.target_type,
    repositorySelection: inst.repository_selection,
    suspendedAt: inst.suspended_at ?? null,
  });
  if (!inst.suspended_at) {
    await refreshInstallationRepositories(
      { db: deps.db, logger: deps.logger, githubApiUrl: deps.env.GITHUB_API_URL },
      app,
      installationId,
    );
  }
  const linked = await installations.linkKnownUsers(deps.db, installationId);
  return linked.includes(user.id);
}

/** The App's installation page on GitHub, or null without an App. */
export async function installUrl(deps: AppDeps): Promise<string | null> {
  const app = await githubApp(githubUserContext(deps));
  if (!app || !app.slug) return null;
  return `${deps.env.GITHUB_WEB_URL.replace(/\/+$/, "")}/apps/${encodeURIComponent(app.slug)}/installations/new`;
}

/** GitHub's page where the installation's owner changes its repositories (or suspends, uninstalls it). */
export function configureUrl(
  deps: AppDeps,
  i: { installation_id: string; account_login: string; account_type: string },
): string {
  const web = deps.env.GITHUB_WEB_URL.replace(/\/+$/, "");
  const id = encodeURIComponent(i.installation_id);
  return i.account_type === "Organization"
    ? `${web}/organizations/${encodeURIComponent(i.account_login)}/settings/installations/${id}`
    : `${web}/settings/installations/${id}`;
}
