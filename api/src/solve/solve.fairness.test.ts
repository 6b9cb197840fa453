import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startModelSandbox, type ModelSandbox } from "@fixloop/testkit/sandbox";
import { createTestStack, type TestStack } from "../../test/stack";
import { insertIssue } from "@fixloop/testkit";
import { startWorkers } from "@fixloop/worker";
import { runEventsKey } from "@fixloop/contract";
import { parseEntry } from "@fixloop/runtime";
import { until } from "../../test/faults.testkit";

// No worker at first: each test starts its own on the stack's queues. Every plan may run 2 runs per user at once.
let models: ModelSandbox;
let stack: TestStack;

beforeAll(async () => {
  models = await startModelSandbox();
  stack = await createTestStack({
    env: { ...models.env, MAX_ACTIVE_RUNS_PER_USER: "2", SANDBOX_BACKEND: "off", LOCALIZE_THREADS: "0" },
    workers: false,
    logLevel: "warn",
  });
});
afterAll(async () => {
  await models?.stop();
});

async function user(login: string) {
  const me = await stack.signIn(login);
  return { headers: { ...me.headers, "content-type": "application/json" }, userId: me.user._id };
}

async function solveMany(u: Awaited<ReturnType<typeof user>>, numbers: number[]): Promise<string[]> {
  const ids: string[] = [];
  for (const number of numbers) {
    const issue = await insertIssue(stack.db, u.userId, { number });
    const res = await stack.client(u.headers).ai["generate-solution"].$post({ query: {}, json: { issueId: issue.id } });
    expect(res.status).toBe(202);
    ids.push((await res.json()).runId);
  }
  return ids;
}

const runRows = (ids: string[]) =>
  stack.db
    .selectFrom("solve_runs")
    .select(["id", "status", "attempts", "started_at", "finished_at"])
    .where("id", "in", ids)
    .execute();

async function firstStepNote(u: { headers: Record<string, string> }, runId: string): Promise<string | undefined> {
  const res = await stack.client(u.headers).runs[":id"].$get({ param: { id: runId } });
  return (await res.json()).run.steps[0]?.detail.info[0];
}

/** Most runs whose [started, finished] intervals overlap at one instant. */
function maxOverlap(rows: { started_at: Date | null; finished_at: Date | null }[]): number {
  const edges = rows.flatMap((r) => [
    [r.started_at?.getTime() ?? 0, 1],
    [r.finished_at?.getTime() ?? 0, -1],
  ]);
  edges.sort((a, b) => (a[0] ?? 0) - (b[0] ?? 0) || (a[1] ?? 0) - (b[1] ?? 0));
  let now = 0;
  let most = 0;
  for (const [, d] of edges) most = Math.max(most, (now += d ?? 0));
  return most;
}

describe("fair solve queues", () => {
  it("runs at most the plan's cap of one user's runs at once across two workers, and says why the others wait", async () => {
    const a = await user("octocat");
    const ids = await solveMany(a, [701, 702, 703, 704, 705]);
    // Nothing runs yet: the first two would run now, the rest wait behind their user's runs.
    expect(await firstStepNote(a, ids[1] ?? "")).toBe("waiting for a free worker");
    expect(await firstStepNote(a, ids[4] ?? "")).toBe("queued: 4 of your runs ahead");

    models.control.latency(600);
    const one = startWorkers(stack.ctx, { queues: ["solve"], concurrency: 3 });
    const two = startWorkers(stack.ctx, { queues: ["solve"], concurrency: 3 });
    try {
      await until(
        "the five runs ended",
        async () => (await runRows(ids)).every((r) => r.status === "completed"),
        60_000,
        100,
      );
    } finally {
      await Promise.all([one.close(), two.close()]);
      models.control.latency(0);
    }
    const rows = await runRows(ids);
    expect(maxOverlap(rows)).toBe(2);
    // A run held back is not an attempt: each ran once.
    expect(rows.map((r) => r.attempts)).toEqual([1, 1, 1, 1, 1]);
    // The runs held back said live, in their first step, where they stood. Which runs a worker
    // holds back depends on when each worker takes its jobs, so the notes are read across all five.
    const notes: string[] = [];
    for (const id of ids) {
      const events = (await stack.redis.xrange(runEventsKey(stack.prefix, id), "-", "+")).map(([, f]) => parseEntry(f));
      notes.push(...events.flatMap((e) => (e?.type === "step" && e.status === "pending" ? e.detail.info : [])));
    }
    expect(notes.some((n) => /^queued: [2-4] of your runs ahead$/.test(n))).toBe(true);
    expect(notes.every((n) => /^queued: \d of your runs ahead$|^waiting for a free worker$/.test(n))).toBe(true);
  });

  it("takes a user's first waiting run before another user's later ones", async () => {
    const a = await user("hubot");
    const b = await user("monalisa");
    const aIds = await solveMany(a, [801, 802, 803, 804, 805]);
    const [bId = ""] = await solveMany(b, [901]);
    const worker = startWorkers(stack.ctx, { queues: ["solve"], concurrency: 1 });
    const all = [...aIds, bId];
    try {
      await until(
        "the six runs ended",
        async () => (await runRows(all)).every((r) => r.status === "completed"),
        60_000,
        100,
      );
    } finally {
      await worker.close();
    }
    const started = new Map((await runRows(all)).map((r) => [r.id, r.started_at?.getTime() ?? 0]));
    const order = [...all].sort((x, y) => (started.get(x) ?? 0) - (started.get(y) ?? 0));
    // A's first, then B's only run, then A's other four (FIFO would run B's last).
    expect(order).toEqual([aIds[0], bId, ...aIds.slice(1)]);
  });
});
