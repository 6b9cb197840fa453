import { Hono } from "hono";
import { z } from "zod";
import type { AppEnv } from "../deps";
import { requireSession, requireUser } from "../auth/auth.middleware";
import { validate } from "../http/validate";
import { requireAdmin } from "./ops.admin";
import { githubAppSetupRoutes } from "./github-app.routes";
import { cancelAnyRun, drainWorker, queueNamed, retryFailed, setQueuePaused } from "./ops.actions";
import { opsSnapshot } from "./ops.snapshot";
import { streamOps } from "./ops.stream";
import { acquireStreamSlot } from "../solve/sse.limit";
import { dismissLostWorker, WORKER_ID } from "@fixloop/runtime";
import { errors } from "../http/errors";

const QueueParam = z.object({ name: z.string().min(1).max(100) });
const WorkerParam = z.object({ id: z.string().regex(WORKER_ID, "must be a worker id from the operations page") });
const RunParam = z.object({ id: z.string().uuid("must be a run id") });

/**
 * The operations page's API, for ADMIN_GITHUB_LOGINS only (others: 403 `ops.forbidden`): a
 * snapshot, its live stream, and the actions, each written to the log as an audit line. A browser
 * session only: an API token answers 403 `auth.session_required`, even an administrator's.
 */
export const opsRoutes = new Hono<AppEnv>()
  .use("/ops", requireUser, requireSession, requireAdmin)
  .use("/ops/*", requireUser, requireSession, requireAdmin)
  .get("/ops", async (c) => c.json(await opsSnapshot(c.var.deps)))
  .get("/ops/stream", async (c) => streamOps(c, await acquireStreamSlot(c.var.deps, c.var.user.id, "ops")))
  .post("/ops/queues/:name/pause", validate("param", QueueParam), async (c) => {
    const out = await setQueuePaused(queueNamed(c.var.deps, c.req.valid("param").name), true);
    audit(c, "queue.pause", { queue: out.queue });
    return c.json(out);
  })
  .post("/ops/queues/:name/resume", validate("param", QueueParam), async (c) => {
    const out = await setQueuePaused(queueNamed(c.var.deps, c.req.valid("param").name), false);
    audit(c, "queue.resume", { queue: out.queue });
    return c.json(out);
  })
  .post("/ops/queues/:name/retry-failed", validate("param", QueueParam), async (c) => {
    const out = await retryFailed(queueNamed(c.var.deps, c.req.valid("param").name));
    audit(c, "queue.retry_failed", out);
    return c.json(out);
  })
  .post("/ops/workers/:id/drain", validate("param", WorkerParam), async (c) => {
    const out = await drainWorker(c.var.deps, c.req.valid("param").id);
    audit(c, "worker.drain", out);
    return c.json(out, 202);
  })
  .post("/ops/workers/:id/dismiss", validate("param", WorkerParam), async (c) => {
    const { id } = c.req.valid("param");
    if (!(await dismissLostWorker(c.var.deps.redis, c.var.deps.queues.prefix, id)))
      throw errors.notFound("Lost worker");
    audit(c, "worker.dismiss", { workerId: id });
    return c.json({ workerId: id, dismissed: true });
  })
  .post("/ops/runs/:id/cancel", validate("param", RunParam), async (c) => {
    const out = await cancelAnyRun(c.var.deps, c.req.valid("param").id);
    audit(c, "run.cancel", out);
    return c.json(out);
  })
  .route("/ops/github-app", githubAppSetupRoutes);

/** One line per operator action: who did what to which target. */
function audit(c: { var: AppEnv["Variables"] }, action: string, target: Record<string, unknown>) {
  const { user, requestId, deps } = c.var;
  deps.logger.info({ audit: "ops", action, by: user.username, userId: user.id, requestId, ...target }, "ops action");
}
