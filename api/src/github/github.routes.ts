import { Hono } from "hono";
import type { AppEnv } from "../deps";
import { requireUser } from "../auth/auth.middleware";
import { validate } from "../http/validate";
import { repositories } from "@fixloop/db";
import { repositoryView, requiresAuthorization } from "./github.views";
import { runJob } from "../jobs/jobs.run";
import { RepoParams } from "./github.params";

export const githubRoutes = new Hono<AppEnv>()
  .get("/github/repositories", requireUser, async (c) => {
    const deps = c.var.deps;
    const userId = c.var.user.id;
    const sync = await runJob(deps, "sync", { kind: "repositories", userId });
    const rows = await repositories.listOf(deps.db, userId);
    return c.json({
      repositories: rows.map(repositoryView),
      requiresAuthorization: await requiresAuthorization(deps.db, userId),
      ...(sync.done ? {} : { syncing: true, jobId: sync.jobId }),
    });
  })
  .post("/github/repositories/:owner/:repo/sync", requireUser, validate("param", RepoParams), async (c) => {
    const { owner, repo } = c.req.valid("param");
    const out = await runJob(c.var.deps, "sync", { kind: "issues", userId: c.var.user.id, owner, repo });
    if (!out.done) return c.json({ jobId: out.jobId }, 202);
    return c.json({ success: true, count: out.value.count });
  })
  .get("/github/repositories/:owner/:repo/issues", requireUser, validate("param", RepoParams), async (c) => {
    const { owner, repo } = c.req.valid("param");
    const out = await runJob(c.var.deps, "sync", { kind: "issues", userId: c.var.user.id, owner, repo });
    if (!out.done) return c.json({ jobId: out.jobId }, 202);
    return c.json({ count: out.value.count });
  });
