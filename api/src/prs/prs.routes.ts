import { pullRequests } from "@fixloop/db";
import crypto from "node:crypto";
import { Hono } from "hono";
import type { AppEnv } from "../deps";
import { requireUser } from "../auth/auth.middleware";
import { runJob } from "../jobs/jobs.run";
import { presentPullRequest } from "./prs.present";

const list = (c: { var: AppEnv["Variables"] }) => pullRequests.listOwned(c.var.deps.db, c.var.user.id);

export const prsRoutes = new Hono<AppEnv>()
  .use("/prs", requireUser)
  .use("/prs/*", requireUser)
  .get("/prs", async (c) => {
    const rows = await list(c);
    return c.json({ pullRequests: rows.map(presentPullRequest) });
  })
  .post("/prs/sync", async (c) => {
    // A fresh id per request: a sync is a read and may run again at any time.
    const jobId = `sync-prs-${c.var.user.id}-${crypto.randomUUID()}`;
    const outcome = await runJob(
      c.var.deps,
      "sync",
      { kind: "pull-requests", userId: c.var.user.id },
      { jobId, attempts: 1 },
    );
    if (!outcome.done) return c.json({ jobId, pullRequests: null }, 202);
    const rows = await list(c);
    return c.json({ jobId, pullRequests: rows.map(presentPullRequest) }, 200);
  });
