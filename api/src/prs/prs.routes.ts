import { isUuid, pullRequestEvents, pullRequests } from "@fixloop/db";
import crypto from "node:crypto";
import { Hono } from "hono";
import type { AppEnv } from "../deps";
import { requireUser } from "../auth/auth.middleware";
import { runJob } from "../jobs/jobs.run";
import { presentPullRequest } from "./prs.present";
import { errors } from "../http/errors";
import { validate } from "../http/validate";
import { addressReview, pushReviewedRevision } from "./prs.address";
import { AddressReviewBody, PullRequestIdParam } from "./prs.schemas";

const list = (c: { var: AppEnv["Variables"] }) => pullRequests.listOwned(c.var.deps.db, c.var.user.id);

export const prsRoutes = new Hono<AppEnv>()
  .use("/prs", requireUser)
  .use("/prs/*", requireUser)
  .get("/prs", async (c) => {
    const rows = await list(c);
    return c.json({ pullRequests: rows.map(presentPullRequest) });
  })
  .get("/prs/:id/timeline", async (c) => {
    const id = c.req.param("id");
    const entries = isUuid(id) ? await pullRequestEvents.timeline(c.var.deps.db, c.var.user.id, id) : undefined;
    if (!entries) throw errors.notFound("Pull request");
    // Reviewers' texts are untrusted: sent as plain strings, rendered as text by the web app.
    return c.json({ timeline: entries });
  })
  .post(
    "/prs/:id/address-review",
    validate("param", PullRequestIdParam),
    validate("json", AddressReviewBody),
    async (c) => {
      const started = await addressReview(c.var.deps, c.var.user.id, c.req.valid("param").id, c.req.valid("json"));
      return c.json(started, 202);
    },
  )
  .post("/prs/:id/push", validate("param", PullRequestIdParam), async (c) => {
    const result = await pushReviewedRevision(c.var.deps, c.var.user.id, c.req.valid("param").id);
    if (result.status === "queued") return c.json(result, 202);
    return c.json(result, 200);
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
