import { afterAll, describe, expect, it } from "vitest";
import { insertIssue } from "@fixloop/testkit";
import { QUEUES, SolutionTests, jobIds, testsRerunKey } from "@fixloop/contract";
import { readSse, type SseEvent } from "../../test/sse.testkit";
import { solveKit } from "../../test/solve.testkit";
import { pushFiles, TAB_TEST } from "../../test/tests-run.testkit";
import { until } from "../../test/faults.testkit";
import { lapseLock, queueWorkers } from "../../test/lock-lost.testkit";

// Solves run in the stack's own workers; the re-runs in two workers started here, one after the other.
const t = solveKit({ workers: ["solve", "syntax-check"] });
const workers = queueWorkers(() => t.stack, QUEUES.testsRerun);
const firstLog: Array<Record<string, unknown>> = [];
afterAll(async () => {
  await workers.closeAll();
});

const FIXED = "const TRAILING = /[ \\t]+$/;\n";
const FILE = "src/rules/trailing-spaces.js";
/**
 * Each test file that loads the edited file waits until `until` (epoch ms): the first worker's
 * re-run is still under way when the lock lapses and when it is aborted, while the new holder's,
 * starting later, waits once at most rather than for every file.
 */
const slowUntil = (until: number) =>
  `${FIXED}{ const left = ${until} - Date.now(); if (left > 0) Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, left); }\n`;
/** The first worker's abort comes within 15 s of the lapse, which comes within seconds of the edit. */
const SLOW_FOR_MS = 40_000;

const testsOf = async (id: string) => {
  const res = await t.stack.app.request(`/api/validations/${id}`, { headers: t.headers });
  const v = (await res.json()) as { solution: { metadata: { tests: unknown } } };
  return SolutionTests.parse(v.solution.metadata.tests);
};

describe("a worker whose lock on a tests re-run's job lapsed", () => {
  it("stops the tests at once and writes neither output nor evidence; the new holder re-runs them once", async () => {
    pushFiles(t.stack, "hubot", "markdown-lint", { "test/trailing-tabs.test.js": TAB_TEST }, "Add a failing test");
    t.models.control.respondWith((p) => p.includes("trailing-spaces"), {
      analysis: "TRAILING only matches spaces.",
      proposedSolution: "Match tabs too.",
      confidence: 80,
      files: [
        { filename: FILE, action: "modify" as const, edits: [{ search: "const TRAILING = / +$/;\n", replace: FIXED }] },
      ],
    });
    const issue = await insertIssue(t.stack.db, t.userId, {});
    const started = (await (await t.generate({ issueId: issue.id })).json()) as { runId: string };
    const end = (await readSse(await t.events(started.runId))).at(-1) as SseEvent;
    expect(end.event).toBe("completed");
    const id = (end.data as { solutionId: string }).solutionId;

    const firstWorker = workers.start({ log: firstLog });
    const view = (await (await t.stack.app.request(`/api/validations/${id}`, { headers: t.headers })).json()) as {
      solution: { filesChanged: { filename: string; content: string }[] };
    };
    const content = view.solution.filesChanged.find((f) => f.filename === FILE)?.content ?? "";
    const edited = await t.stack.app.request(`/api/validations/${id}/modify`, {
      method: "POST",
      headers: t.headers,
      body: JSON.stringify({
        modifications: [
          {
            filename: FILE,
            originalContent: content,
            modifiedContent: content.replace(FIXED, slowUntil(Date.now() + SLOW_FOR_MS)),
          },
        ],
      }),
    });
    expect(edited.status).toBe(200);
    const job = await t.stack.deps.queues.testsRerun.getJob(jobIds.testsRerun(id, 2));
    await until("the re-run under way", async () => (await job?.getState()) === "active", 30_000, 50);

    // The lock lapses and the job goes back to the queue. The first worker takes no new job from
    // now on (it would take this one again), so what it does after the lapse is seen alone.
    await firstWorker.workers[0]?.pause(true);
    const handedAt = await lapseLock(t.stack, QUEUES.testsRerun, job);

    // Closing waits for the first worker's job to end: it ends at its next lock renewal, well
    // before the edited file's tests would, and whatever it was going to write is written by then.
    await workers.close(firstWorker);
    expect(Date.now() - handedAt).toBeLessThan(15_000);
    // No evidence written: the solution still waits for the re-run of revision 2, and its stream has no end.
    const pending = await testsOf(id);
    expect(pending.rerunPending).toEqual({ revision: 2 });
    expect(pending.stale?.by).toBe("edit");
    const key = testsRerunKey(t.stack.deps.queues.prefix, id, 2);
    const stream = await t.stack.redis.xrange(key, "-", "+");
    expect(stream.filter(([, f]) => f[0] === "end")).toEqual([]);
    expect(firstLog.filter((l) => String(l.msg).startsWith("lost the job's lock"))).toHaveLength(1);

    // The second worker takes the job from the queue and runs the tests over, to their end.
    workers.start();
    const res = await t.stack.app.request(`/api/validations/${id}/tests/events`, { headers: t.headers });
    const live = await readSse(res, (e) => e.event !== "end");
    expect(live.at(-1)?.event).toBe("end");
    const ends = (await t.stack.redis.xrange(key, "-", "+")).filter(([, f]) => f[0] === "end");
    expect(ends).toHaveLength(1);
    const fresh = await testsOf(id);
    expect(fresh.rerunPending).toBeUndefined();
    expect(fresh.rerun?.revision).toBe(2);
    expect(await (await t.stack.deps.queues.testsRerun.getJob(jobIds.testsRerun(id, 2)))?.getState()).toBe("completed");
  }, 150_000);
});
