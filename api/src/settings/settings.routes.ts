import { Hono } from "hono";
import { z } from "zod";
import type { AppEnv } from "../deps";
import { requireUser } from "../auth/auth.middleware";
import { validate } from "../http/validate";

export const PullRequestSettings = z.object({ draftPullRequests: z.boolean() }).strict();
export type PullRequestSettings = z.infer<typeof PullRequestSettings>;

export const settingsRoutes = new Hono<AppEnv>()
  .get("/settings/pull-requests", requireUser, async (c) => {
    const row = await c.var.deps.db
      .selectFrom("users")
      .select("draft_pull_requests")
      .where("id", "=", c.var.user.id)
      .executeTakeFirstOrThrow();
    return c.json({ draftPullRequests: row.draft_pull_requests });
  })
  .put("/settings/pull-requests", requireUser, validate("json", PullRequestSettings), async (c) => {
    const { draftPullRequests } = c.req.valid("json");
    await c.var.deps.db
      .updateTable("users")
      .set({ draft_pull_requests: draftPullRequests, updated_at: new Date() })
      .where("id", "=", c.var.user.id)
      .execute();
    return c.json({ draftPullRequests });
  });
