import { describe, expect, it } from "vitest";
import { removeWorkerHeartbeat, WORKER_HEARTBEAT_TTL_SECONDS, writeWorkerHeartbeat } from "@fixloop/runtime";
import type { WorkerInfo } from "@fixloop/runtime";
import { createTestApp } from "../../test/testing";
import type { OpsSnapshot } from "./ops.snapshot";

const t = await createTestApp({ ADMIN_GITHUB_LOGINS: "boss" });
const admin = await t.loginAs({ username: "boss" });
const snapshot = async (): Promise<OpsSnapshot> => (await t.client(admin.headers).ops.$get()).json();
const dismiss = (id: string) =>
  t.app.request(`/api/ops/workers/${id}/dismiss`, { method: "POST", headers: admin.headers });

/** A worker's heartbeat as it last wrote it, `secondsAgo` ago. */
function heartbeat(id: string, secondsAgo: number): WorkerInfo {
  const at = new Date(Date.now() - secondsAgo * 1000).toISOString();
  return {
    id,
    host: "node-7",
    pid: 4242,
    queues: ["solve"],
    concurrency: 2,
    activeJobs: 1,
    state: "running",
    version: "test",
    startedAt: at,
    heartbeatAt: at,
    sandbox: null,
    recentJobs: ["solve #31", "solve #30"],
  };
}

describe("a worker process killed without stopping", () => {
  it("stays on the operations page as lost, with when and its last jobs, until dismissed", async () => {
    const prefix = t.deps.queues.prefix;
    // Killed: its last heartbeat is past the TTL and nothing removed it.
    await writeWorkerHeartbeat(t.deps.redis, prefix, heartbeat("node-7-4242-abc123", WORKER_HEARTBEAT_TTL_SECONDS + 5));
    // Alive, and one that stopped cleanly: neither is lost.
    await writeWorkerHeartbeat(t.deps.redis, prefix, heartbeat("node-8-1-def456", 1));
    await writeWorkerHeartbeat(t.deps.redis, prefix, heartbeat("node-9-1-aaa111", WORKER_HEARTBEAT_TTL_SECONDS + 5));
    await removeWorkerHeartbeat(t.deps.redis, prefix, "node-9-1-aaa111");

    const s = await snapshot();
    expect(s.workers.map((w) => w.id)).toEqual(["node-8-1-def456"]);
    expect(s.lostWorkers).toHaveLength(1);
    expect(s.lostWorkers[0]).toMatchObject({
      id: "node-7-4242-abc123",
      host: "node-7",
      pid: 4242,
      recentJobs: ["solve #31", "solve #30"],
    });
    expect(Date.now() - Date.parse(s.lostWorkers[0]?.heartbeatAt ?? "")).toBeGreaterThan(
      WORKER_HEARTBEAT_TTL_SECONDS * 1000,
    );

    expect((await dismiss("node-7-4242-abc123")).status).toBe(200);
    expect((await snapshot()).lostWorkers).toEqual([]);
    expect((await dismiss("node-7-4242-abc123")).status).toBe(404);
    expect((await dismiss("a%20b")).status).toBe(400);
  });
});
