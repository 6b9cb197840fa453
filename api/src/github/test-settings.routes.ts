import { Hono } from "hono";
import { repositories } from "@fixloop/db";
import { RepositoryTestSettings } from "@fixloop/contract";
import type { AppEnv } from "../deps";
import { requireUser } from "../auth/auth.middleware";
import { errors } from "../http/errors";
import { validate } from "../http/validate";
import { RepoParams } from "./github.params";

const DEFAULTS: RepositoryTestSettings = { command: null, setup: null, timeoutSeconds: null, setupNetwork: false };

/**
 * The user's test command for one repository (overrides .fixloop.yml and detection).
 * GET answers `{ settings }` (nulls = detect); PUT takes the whole `RepositoryTestSettings`.
 */
export const testSettingsRoutes = new Hono<AppEnv>()
  .get("/github/repositories/:owner/:repo/test-settings", requireUser, validate("param", RepoParams), async (c) => {
    const { owner, repo } = c.req.valid("param");
    const row = await repositories.findWithTestSettings(c.var.deps.db, c.var.user.id, `${owner}/${repo}`);
    if (!row) throw errors.notFound("Repository");
    const settings: RepositoryTestSettings = row.testSettings ?? DEFAULTS;
    return c.json({ settings });
  })
  .put(
    "/github/repositories/:owner/:repo/test-settings",
    requireUser,
    validate("param", RepoParams),
    validate("json", RepositoryTestSettings),
    async (c) => {
      const { owner, repo } = c.req.valid("param");
      const settings = c.req.valid("json");
      const db = c.var.deps.db;
      const row = await repositories.findWithTestSettings(db, c.var.user.id, `${owner}/${repo}`);
      if (!row) throw errors.notFound("Repository");
      const reset = !settings.command && !settings.setup && !settings.timeoutSeconds && !settings.setupNetwork;
      await repositories.saveTestSettings(db, row.id, reset ? null : settings);
      return c.json({ settings });
    },
  );
