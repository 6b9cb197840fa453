import { Hono } from "hono";
import { z } from "zod";
import type { AppEnv } from "../deps";
import { requireUser } from "../auth/auth.middleware";
import { validate } from "../http/validate";
import { users } from "@fixloop/db";
import { CandidateCount } from "@fixloop/contract";

export const PullRequestSettings = z.object({ draftPullRequests: z.boolean() }).strict();
export type PullRequestSettings = z.infer<typeof PullRequestSettings>;

export const CandidateSettings = z.object({ defaultCandidates: CandidateCount }).strict();
export type CandidateSettings = z.infer<typeof CandidateSettings>;

export const settingsRoutes = new Hono<AppEnv>()
  .get("/settings/candidates", requireUser, async (c) => {
    return c.json({ defaultCandidates: await users.defaultCandidates(c.var.deps.db, c.var.user.id) });
  })
  .put("/settings/candidates", requireUser, validate("json", CandidateSettings), async (c) => {
    const { defaultCandidates } = c.req.valid("json");
    await users.setDefaultCandidates(c.var.deps.db, c.var.user.id, defaultCandidates);
    return c.json({ defaultCandidates });
  })
  .get("/settings/pull-requests", requireUser, async (c) => {
    return c.json({ draftPullRequests: await users.draftPullRequests(c.var.deps.db, c.var.user.id) });
  })
  .put("/settings/pull-requests", requireUser, validate("json", PullRequestSettings), async (c) => {
    const { draftPullRequests } = c.req.valid("json");
    await users.setDraftPullRequests(c.var.deps.db, c.var.user.id, draftPullRequests);
    return c.json({ draftPullRequests });
  });
