import { Hono } from "hono";
import { z } from "zod";
import type { AppEnv } from "../deps";
import { requireUser } from "../auth/auth.middleware";
import { validate } from "../http/validate";
import { users } from "@fixloop/db";

export const PullRequestSettings = z.object({ draftPullRequests: z.boolean() }).strict();
export type PullRequestSettings = z.infer<typeof PullRequestSettings>;

export const settingsRoutes = new Hono<AppEnv>()
  .get("/settings/pull-requests", requireUser, async (c) => {
    return c.json({ draftPullRequests: await users.draftPullRequests(c.var.deps.db, c.var.user.id) });
  })
  .put("/settings/pull-requests", requireUser, validate("json", PullRequestSettings), async (c) => {
    const { draftPullRequests } = c.req.valid("json");
    await users.setDraftPullRequests(c.var.deps.db, c.var.user.id, draftPullRequests);
    return c.json({ draftPullRequests });
  });
