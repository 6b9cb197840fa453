import { Hono } from "hono";
import { z } from "zod";
import { installations } from "@fixloop/db";
import { canWrite, githubApp } from "@fixloop/runtime";
import { githubUserContext } from "../auth/auth.cipher";
import { githubAccounts } from "@fixloop/db";
import type { AppEnv } from "../deps";
import { requireUser } from "../auth/auth.middleware";
import { publicUrl } from "../auth/auth.cookies";
import { validate } from "../http/validate";
import { adoptInstallation, configureUrl, installUrl } from "./installations.service";

const SetupQuery = z.object({
  installation_id: z.coerce.number().int().positive().max(Number.MAX_SAFE_INTEGER),
  setup_action: z.string().max(40).optional(),
});

export const githubAppRoutes = new Hono<AppEnv>()
  /**
   * The App as this user sees it: where to install it, their installations, and whether to ask an
   * OAuth-grant user to move to the App (`suggestInstall`).
   */
  .get("/github/app", requireUser, async (c) => {
    const deps = c.var.deps;
    const userId = c.var.user.id;
    const app = await githubApp(githubUserContext(deps));
    const mine = app ? await installations.ofUser(deps.db, userId) : [];
    const counts = await installations.repositoryCounts(
      deps.db,
      mine.map((i) => i.installation_id),
    );
    const scopes = await githubAccounts.scopes(deps.db, userId);
    // Asked once: an OAuth-grant user without an installation, until they answer (install or "Not now").
    const suggestInstall =
      app !== null &&
      mine.length === 0 &&
      canWrite(scopes ?? []) &&
      !(await installations.promptAnswered(deps.db, userId));
    return c.json({
      configured: app !== null,
      installUrl: await installUrl(deps),
      installations: mine.map((i) => ({
        id: Number(i.installation_id),
        account: i.account_login,
        accountType: i.account_type,
        repositorySelection: i.repository_selection,
        repositoryCount: counts.get(String(i.installation_id)) ?? 0,
        suspended: i.suspended_at !== null,
        configureUrl: configureUrl(deps, i),
        updatedAt: i.updated_at.toISOString(),
      })),
      suggestInstall,
    });
  })
  /** The user answered the one-time prompt to install the App (installing, or "Not now"): it is not asked again. */
  .post("/github/app/prompt", requireUser, async (c) => {
    await installations.answerPrompt(c.var.deps.db, c.var.user.id);
    return c.json({ answered: true });
  })
  /** GitHub's redirect after an installation (the App's Setup URL): adopt it, then back to Repositories. */
  .get("/github/app/setup", requireUser, validate("query", SetupQuery), async (c) => {
    const { installation_id } = c.req.valid("query");
    const linked = await adoptInstallation(c.var.deps, installation_id, c.var.user);
    const to = linked ? "installed=true" : "installed=pending";
    return c.redirect(`${publicUrl(c)}/repositories?${to}`, 302);
  });
