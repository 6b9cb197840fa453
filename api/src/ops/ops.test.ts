import { describe, expect, it } from "vitest";
import pino from "pino";
import { eventually, insertIssue, insertRun } from "@fixloop/testkit";
import { createTestApp, errorOf, startTestWorkers, type TestApp } from "../../test/testing";
import { readSse } from "../../test/sse.testkit";
import type { OpsSnapshot } from "./ops.snapshot";

/** An app whose log lines are kept, with `boss` as its only administrator. */
async function opsApp() {
  const lines: string[] = [];
  const logger = pino({ level: "info" }, { write: (s: string) => void lines.push(s) });
  const t = await createTestApp({ ADMIN_GITHUB_LOGINS: "Boss" }, { logger });
  const admin = await t.loginAs({ username: "boss" });
  const other = await t.loginAs({ username: "someone" });
  const audits = () =>
    lines.map((l) => JSON.parse(l) as Record<string, unknown>).filter((l) => l.audit === "ops" && l.by === "boss");
  return { t, admin, other, audits };
}

const post = (t: TestApp, path: string, headers: Record<string, string>) =>
  t.app.request(path, { method: "POST", headers });
const snapshot = async (t: TestApp, headers: Record<string, string>): Promise<OpsSnapshot> =>
  (await t.client(headers).ops.$get()).json();
const queueOf = (s: OpsSnapshot, name: string) => s.queues.find((q) => q.name === name);

/** The first snapshot for which `ok` holds. */
const snapshotWhen = (t: TestApp, headers: Record<string, string>, ok: (s: OpsSnapshot) => boolean) =>
  eventually(
    async () => {
      const s = await snapshot(t, headers);
      return ok(s) ? s : false;
    },
    { timeout: 10_000, interval: 100 },
  );

describe("the operations API", () => {
  it("answers 403 ops.forbidden to signed-in non-admins on every endpoint, and 401 when signed out", async () => {
    const { t, admin, other } = await opsApp();
    const runId = "00000000-0000-4000-8000-000000000000";
    for (const [method, path] of [
      ["GET", "/api/ops"],
      ["GET", "/api/ops/stream"],
      ["POST", "/api/ops/queues/sync/pause"],
      ["POST", "/api/ops/queues/sync/resume"],
      ["POST", "/api/ops/queues/sync/retry-failed"],
      ["POST", "/api/ops/workers/some-worker/drain"],
      ["POST", `/api/ops/runs/${runId}/cancel`],
    ] as const) {
      const res = await t.app.request(path, { method, headers: other.headers });
      expect(res.status, `${method} ${path}`).toBe(403);
      expect(await res.json()).toEqual({ error: { code: "ops.forbidden", message: expect.stringMatching(/admin/) } });
      expect((await t.app.request(path, { method })).status).toBe(401);
    }
    await post(t, "/api/ops/queues/sync/pause", other.headers);
    expect(await t.deps.queues.sync.isPaused()).toBe(false);
    const me = async (h: Record<string, string>) => (await (await t.client(h).auth.me.$get()).json()).user;
    expect((await me(admin.headers)).isAdmin).toBe(true);
    expect((await me(other.headers)).isAdmin).toBe(false);
  });

  it("answers an administrator's API token 403 auth.session_required on every endpoint, and does nothing", async () => {
    const { t, admin } = await opsApp();
    const created = await t.client(admin.headers).tokens.$post({ json: { name: "script" } });
    const { secret } = await created.json();
    const bearer = { authorization: `Bearer ${secret}` };
    const bindings = () => t.db.selectFrom("admin_bindings").selectAll().execute();
    const before = await bindings();
    const runId = "00000000-0000-4000-8000-000000000000";
    for (const [method, path] of [
      ["GET", "/api/ops"],
      ["GET", "/api/ops/stream"],
      ["POST", "/api/ops/queues/sync/pause"],
      ["POST", "/api/ops/queues/sync/resume"],
      ["POST", "/api/ops/queues/sync/retry-failed"],
      ["POST", "/api/ops/workers/some-worker/drain"],
      ["POST", `/api/ops/runs/${runId}/cancel`],
      ["GET", "/admin/queues"],
      ["GET", "/admin/queues/api/queues"],
    ] as const) {
      const res = await t.app.request(path, { method, headers: bearer });
      expect(res.status, `${method} ${path}`).toBe(403);
      expect(await res.json()).toEqual({
        error: { code: "auth.session_required", message: expect.stringMatching(/operations page/) },
      });
    }
    expect(await t.deps.queues.sync.isPaused()).toBe(false);
    expect(await bindings()).toEqual(before);
    // The same administrator in the browser still has the page.
    expect((await t.app.request("/api/ops", { headers: admin.headers })).status).toBe(200);
    expect((await t.app.request("/admin/queues", { headers: admin.headers })).status).toBe(200);
  });

  it("makes no administrator of another GitHub account that takes a freed administrator login", async () => {
    const { t, admin } = await opsApp();
    expect((await t.app.request("/api/ops", { headers: admin.headers })).status).toBe(200);
    // The administrator renamed their GitHub account; someone else registered "boss" and signs in.
    await t.db.updateTable("users").set({ username: "boss-renamed" }).where("id", "=", admin.user.id).execute();
    const taker = await t.loginAs({ username: "BOSS" });
    expect(taker.user.id).not.toBe(admin.user.id);
    const res = await t.app.request("/api/ops", { headers: taker.headers });
    expect(res.status).toBe(403);
    expect((await t.app.request("/admin/queues", { headers: taker.headers })).status).toBe(404);
    const me = await (await t.client(taker.headers).auth.me.$get()).json();
    expect(me.user.isAdmin).toBe(false);
    await post(t, "/api/ops/queues/sync/pause", taker.headers);
    expect(await t.deps.queues.sync.isPaused()).toBe(false);
  });

  it("shows queue depth, oldest waiting age, busiest users and runs in flight, live over SSE", async () => {
    const { t, admin } = await opsApp();
    const userId = admin.user.id;
    await t.deps.queues.sync.add("x", { kind: "repositories", userId });
    await t.deps.queues.sync.add("y", { kind: "repositories", userId });
    for (const i of [0, 1, 2]) {
      const issue = await insertIssue(t.db, userId, { number: 7 + i });
      const status = i ? "queued" : "running";
      const run = await insertRun(t.db, { user_id: userId, issue_id: issue.id, model_id: "m", status });
      const at = new Date();
      await t.db
        .insertInto("run_steps")
        .values({
          run_id: run.id,
          step: "analyzing",
          status: "completed",
          detail: "{}",
          finished_at: at,
          duration_ms: 100 * (i + 1),
        })
        .execute();
    }
    await new Promise((r) => setTimeout(r, 20));
    const s = await snapshot(t, admin.headers);
    expect(queueOf(s, "sync")).toMatchObject({ waiting: 2, active: 0, failed: 0, paused: false, failureRate: null });
    expect(queueOf(s, "sync")?.oldestWaitingMs).toBeGreaterThanOrEqual(20);
    expect(queueOf(s, "solve")?.oldestWaitingMs).toBeNull();
    expect(queueOf(s, "sync")?.completedPerMinute).toHaveLength(60);
    expect(s.users).toEqual([{ userId, username: "boss", active: 1, waiting: 2 }]);
    expect(s.runs.map((r) => r.status).sort()).toEqual(["queued", "queued", "running"]);
    expect(s.steps).toEqual([{ step: "analyzing", p50: 200, p95: 290, p99: 298, count: 3 }]);

    const events = await readSse(await t.app.request("/api/ops/stream", { headers: admin.headers }), () => false);
    expect(events[0]?.event).toBe("snapshot");
    expect(queueOf(events[0]?.data as OpsSnapshot, "sync")?.waiting).toBe(2);
  });

  it("pauses and resumes a queue, refuses an unknown one, and audits each action", async () => {
    const { t, admin, audits } = await opsApp();
    const paused = await post(t, "/api/ops/queues/solve/pause", admin.headers);
    expect(await paused.json()).toEqual({ queue: "solve", paused: true });
    expect(await t.deps.queues.solve.isPaused()).toBe(true);
    expect(queueOf(await snapshot(t, admin.headers), "solve")?.paused).toBe(true);
    const unknown = await post(t, "/api/ops/queues/nope/pause", admin.headers);
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toEqual({ error: { code: "ops.queue_not_found", message: 'No queue named "nope"' } });
    expect(await (await post(t, "/api/ops/queues/solve/resume", admin.headers)).json()).toEqual({
      queue: "solve",
      paused: false,
    });
    expect(await t.deps.queues.solve.isPaused()).toBe(false);
    expect(audits().map((a) => [a.action, a.queue])).toEqual([
      ["queue.pause", "solve"],
      ["queue.resume", "solve"],
    ]);
  });

  it("lists a worker process, counts its failures, drains it, then retries the failed job onto the queue", async () => {
    const { t, admin, audits } = await opsApp();
    const running = startTestWorkers(t, ["sync"]);
    await running.presence.ready;
    const listed = (await snapshot(t, admin.headers)).workers.find((w) => w.id === running.presence.id);
    expect(listed).toMatchObject({
      pid: process.pid,
      queues: ["sync"],
      concurrency: 2,
      activeJobs: 0,
      state: "running",
    });

    // A payload no processor accepts fails at once, for good.
    await t.deps.queues.sync.add("bad", { kind: "nope" } as never);
    const failed = await snapshotWhen(t, admin.headers, (s) => queueOf(s, "sync")?.failed === 1);
    expect(queueOf(failed, "sync")?.failedPerMinute.reduce((a, b) => a + b)).toBe(1);
    expect(queueOf(failed, "sync")?.failureRate).toBe(1);

    expect((await post(t, "/api/ops/workers/../drain", admin.headers)).status).toBe(404);
    const bad = await post(t, "/api/ops/workers/a%20b/drain", admin.headers);
    expect([bad.status, (await errorOf(bad)).code]).toEqual([400, "request.invalid"]);
    const gone = await post(t, "/api/ops/workers/host-1-abcdef/drain", admin.headers);
    expect([gone.status, (await errorOf(gone)).code]).toEqual([404, "ops.worker_not_found"]);

    const drain = await post(t, `/api/ops/workers/${running.presence.id}/drain`, admin.headers);
    expect(drain.status).toBe(202);
    expect(await drain.json()).toMatchObject({ workerId: running.presence.id, state: "draining" });
    const drained = await snapshotWhen(
      t,
      admin.headers,
      (s) => s.workers.find((w) => w.id === running.presence.id)?.state === "drained",
    );
    expect(drained.workers.find((w) => w.id === running.presence.id)?.state).toBe("drained");
    const again = await post(t, `/api/ops/workers/${running.presence.id}/drain`, admin.headers);
    expect(again.status).toBe(409);

    const retried = await post(t, "/api/ops/queues/sync/retry-failed", admin.headers);
    expect(await retried.json()).toEqual({ queue: "sync", retried: 1 });
    // The drained process takes nothing new: its queue workers are closed, so the retried job waits.
    expect(running.workers.map((w) => w.isRunning())).not.toContain(true);
    expect(running.workers.map((w) => w.closing)).not.toContain(undefined);
    expect(queueOf(await snapshot(t, admin.headers), "sync")).toMatchObject({ waiting: 1, active: 0, failed: 0 });
    expect(audits().map((a) => a.action)).toEqual(["worker.drain", "queue.retry_failed"]);
  });

  it("cancels any user's queued run, and answers 404 or 400 for an unknown or malformed run id", async () => {
    const { t, admin, other, audits } = await opsApp();
    const issue = await insertIssue(t.db, other.user.id, { number: 9 });
    const run = await insertRun(t.db, { user_id: other.user.id, issue_id: issue.id, model_id: "m" });
    const missing = await post(t, "/api/ops/runs/00000000-0000-4000-8000-000000000000/cancel", admin.headers);
    expect([missing.status, (await errorOf(missing)).code]).toEqual([404, "run.not_found"]);
    expect((await post(t, "/api/ops/runs/not-a-run/cancel", admin.headers)).status).toBe(400);
    const res = await post(t, `/api/ops/runs/${run.id}/cancel`, admin.headers);
    expect(await res.json()).toEqual({ runId: run.id, userId: other.user.id, status: "cancelled" });
    const row = await t.db.selectFrom("solve_runs").select("status").where("id", "=", run.id).executeTakeFirst();
    expect(row?.status).toBe("cancelled");
    expect((await post(t, `/api/ops/runs/${run.id}/cancel`, admin.headers)).status).toBe(409);
    expect(audits().map((a) => [a.action, a.runId])).toEqual([["run.cancel", run.id]]);
  });
});
