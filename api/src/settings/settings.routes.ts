import { Hono } from "hono";
import { z } from "zod";
import type { AppDeps, AppEnv } from "../deps";
import { requireUser } from "../auth/auth.middleware";
import { validate } from "../http/validate";
import { users } from "@fixloop/db";
import { CandidateCount, RunMode } from "@fixloop/contract";

export const PullRequestSettings = z.object({ draftPullRequests: z.boolean() }).strict();
export type PullRequestSettings = z.infer<typeof PullRequestSettings>;

/** The candidate default, the run mode default and whether unverified solutions are presented; any of them. */
export const CandidateSettings = z
  .object({
    defaultCandidates: CandidateCount.optional(),
    presentUnverified: z.boolean().optional(),
    defaultMode: RunMode.optional(),
  })
  .strict()
  .refine(
    (v) => v.defaultCandidates !== undefined || v.presentUnverified !== undefined || v.defaultMode !== undefined,
    { message: "Give defaultCandidates, defaultMode or presentUnverified" },
  );
export type CandidateSettings = z.infer<typeof CandidateSettings>;

async function candidateSettings(deps: AppDeps, userId: string) {
  const present = await users.presentUnverified(deps.db, userId);
  return {
    defaultCandidates: await users.defaultCandidates(deps.db, userId),
    /** How step 4 writes a fix unless the solve says otherwise. */
    defaultMode: await users.defaultRunMode(deps.db, userId),
    /** Effective: the user's choice, else the operator's default. */
    presentUnverified: present ?? deps.env.PRESENT_UNVERIFIED,
    presentUnverifiedDefault: deps.env.PRESENT_UNVERIFIED,
  };
}

export const settingsRoutes = new Hono<AppEnv>()
  .get("/settings/candidates", requireUser, async (c) => c.json(await candidateSettings(c.var.deps, c.var.user.id)))
  .put("/settings/candidates", requireUser, validate("json", CandidateSettings), async (c) => {
    const { defaultCandidates, presentUnverified, defaultMode } = c.req.valid("json");
    const { db } = c.var.deps;
    if (defaultMode !== undefined) await users.setDefaultRunMode(db, c.var.user.id, defaultMode);
    if (defaultCandidates !== undefined) await users.setDefaultCandidates(db, c.var.user.id, defaultCandidates);
    if (presentUnverified !== undefined) await users.setPresentUnverified(db, c.var.user.id, presentUnverified);
    return c.json(await candidateSettings(c.var.deps, c.var.user.id));
  })
  .get("/settings/pull-requests", requireUser, async (c) => {
    return c.json({ draftPullRequests: await users.draftPullRequests(c.var.deps.db, c.var.user.id) });
  })
  .put("/settings/pull-requests", requireUser, validate("json", PullRequestSettings), async (c) => {
    const { draftPullRequests } = c.req.valid("json");
    await users.setDraftPullRequests(c.var.deps.db, c.var.user.id, draftPullRequests);
    return c.json({ draftPullRequests });
  });
