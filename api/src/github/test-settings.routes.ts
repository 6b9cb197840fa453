import { Hono } from "hono";
import { sql } from "kysely";
import type { Db } from "@fixloop/db";
import { RepositoryTestSettings } from "@fixloop/worker/contract";
import type { AppEnv } from "../deps";
import { requireUser } from "../auth/auth.middleware";
import { errors } from "../http/errors";
import { validate } from "../http/validate";
import { RepoParams } from "./github.params";

const DEFAULTS: RepositoryTestSettings = { command: null, setup: null, timeoutSeconds: null, setupNetwork: false };

const ownRepository = (db: Db, userId: string, owner: string, repo: string) =>
  db
    .selectFrom("repositories")
    .select(["id", "test_settings"])
    .where("user_id", "=", userId)
    .where(sql<string>`lower(full_name)`, "=", `${owner}/${repo}`.toLowerCase())
    .executeTakeFirst();

/**
 * The user's test command for one repository (overrides .fixloop.yml and detection).
 * GET answers `{ settings }` (nulls = detect); PUT takes the whole `RepositoryTestSettings`.
 */
export const testSettingsRoutes = new Hono<AppEnv>()
  .get("/github/repositories/:owner/:repo/test-settings", requireUser, validate("param", RepoParams), async (c) => {
    const { owner, repo } = c.req.valid("param");
    const row = await ownRepository(c.var.deps.db, c.var.user.id, owner, repo);
    if (!row) throw errors.notFound("Repository");
    const settings: RepositoryTestSettings = RepositoryTestSettings.safeParse(row.test_settings).data ?? DEFAULTS;
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
      const row = await ownRepository(db, c.var.user.id, owner, repo);
      if (!row) throw errors.notFound("Repository");
      const reset = !settings.command && !settings.setup && !settings.timeoutSeconds && !settings.setupNetwork;
      await db
        .updateTable("repositories")
        .set({ test_settings: reset ? null : JSON.stringify(settings), updated_at: new Date() })
        .where("id", "=", row.id)
        .execute();
      return c.json({ settings });
    },
  );
