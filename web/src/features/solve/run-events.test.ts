import { afterEach, describe, expect, it, vi } from "vitest";
import { actionsOf, REPOSITORY_ACCESS_LOST, RUN_EVENT_TYPES, standing, type RunEvent } from "@fixloop/contract";
import { QueryClient } from "@tanstack/react-query";
import { runQuery, type Run } from "../../api/runs.queries";
import { applyRunEvent, applySnapshot, applyStep, parseRunEvent, parseRunSnapshot, stoppedReason } from "./run-events";

const step = (id: string) => ({
  id,
  label: id,
  status: "pending",
  detail: { files: [], info: [], warnings: [] },
  startedAt: null,
  finishedAt: null,
  cost: { tokensIn: 0, tokensOut: 0, usd: 0 },
});
const run = {
  _id: "r1",
  status: "queued",
  currentStep: null,
  createdAt: "2026-01-01T00:00:00Z",
  steps: ["analyzing", "context"].map(step),
} as unknown as Run;

describe("applyStep", () => {
  it("folds a step event into the cached run and marks the run running", () => {
    const detail = { files: ["a.ts"], info: ["1 file"], warnings: [], score: 90 };
    const started = applyStep(run, { step: "analyzing", status: "running", detail, at: "2026-01-01T00:00:01Z" });
    const done = applyStep(started, { step: "analyzing", status: "completed", detail, at: "2026-01-01T00:00:03Z" });
    expect(done.status).toBe("running");
    expect(done.currentStep).toBe("analyzing");
    expect(done.steps[0]).toMatchObject({
      status: "completed",
      detail,
      startedAt: "2026-01-01T00:00:01Z",
      finishedAt: "2026-01-01T00:00:03Z",
    });
    expect(done.steps[1]?.status).toBe("pending");
  });

  it("shows a queued run's note on why it waits in its first step and keeps the run queued", () => {
    const detail = { files: [], info: ["queued: 3 of your runs ahead"], warnings: [] };
    const waiting = applyStep(run, { step: "analyzing", status: "pending", detail, at: "2026-01-01T00:00:01Z" });
    expect(waiting.status).toBe("queued");
    expect(waiting.currentStep).toBeNull();
    expect(waiting.steps[0]).toMatchObject({ status: "pending", detail, startedAt: null, finishedAt: null });
  });

  it("carries the step's estimate, then its recorded cost into the run's total", () => {
    const detail = { files: [], info: [], warnings: [] };
    const estimated = applyStep(run, {
      step: "context",
      status: "running",
      detail,
      at: "2026-01-01T00:00:01Z",
      cost: { tokensIn: 0, tokensOut: 0, usd: 0, estimateUsd: 0.004 },
    });
    expect(estimated.steps[1]?.cost.estimateUsd).toBe(0.004);
    expect(estimated.costUsd).toBe(0);
    const done = applyStep(estimated, {
      step: "context",
      status: "completed",
      detail,
      at: "2026-01-01T00:00:02Z",
      cost: { tokensIn: 900, tokensOut: 100, usd: 0.0031, estimateUsd: 0.004 },
    });
    expect(done.steps[1]?.cost).toMatchObject({ tokensIn: 900, usd: 0.0031 });
    expect(done.costUsd).toBeCloseTo(0.0031, 8);
    // An event without cost (an older worker) keeps what the step had.
    expect(
      applyStep(done, { step: "context", status: "completed", detail, at: "2026-01-01T00:00:03Z" }).steps[1]?.cost.usd,
    ).toBe(0.0031);
  });
});

describe("parseRunEvent", () => {
  const at = "2026-01-01T00:00:01Z";
  const examples: RunEvent[] = [
    { type: "step", step: "context", status: "running", detail: { files: [], info: ["reading"], warnings: [] }, at },
    {
      type: "step",
      step: "generating",
      status: "completed",
      detail: { files: ["a.ts"], info: [], warnings: [], score: 80 },
      at,
      cost: { tokensIn: 10, tokensOut: 5, usd: 0.001, estimateUsd: 0.002 },
    },
    { type: "completed", solutionId: "s1", at },
    { type: "failed", error: { code: "model.timeout", message: "The model did not answer" }, at },
    { type: "cancelled", at },
    { type: "cancelled", error: { code: "issue.gone", message: "The issue was deleted on GitHub" }, at },
    {
      type: "tests",
      phase: "patched",
      output: "ok 1 - adds\n",
      counts: { passed: 1, failed: 0, errored: 0 },
      done: false,
      at,
    },
    { type: "candidate", n: 2, state: "tested", summary: "Ranked first: no regressions", rank: 1, at },
    {
      type: "agent",
      n: 1,
      seq: 0,
      action: { turn: 1, tool: "run", target: "npm test", exitCode: 1, output: "1 failing", durationMs: 900 },
      at,
    },
  ];
  const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
  afterEach(() => warn.mockClear());

  it("accepts every kind of run event as the API sends it", () => {
    expect(new Set(examples.map((e) => e.type))).toEqual(new Set(RUN_EVENT_TYPES));
    for (const e of examples) expect(parseRunEvent(e.type, JSON.stringify(e))).toEqual(e);
    expect(warn).not.toHaveBeenCalled();
  });

  it("ignores a malformed message with a console warning instead of throwing", () => {
    const bad: [string, string][] = [
      ["step", "{not json"],
      ["step", JSON.stringify({ type: "step", step: "context", status: "running", at })],
      ["step", JSON.stringify({ type: "step", step: "nowhere", status: "running", detail: examples[0], at })],
      ["completed", JSON.stringify({ type: "completed", at })],
      ["failed", JSON.stringify({ type: "failed", error: "boom", at })],
      ["tests", JSON.stringify({ type: "tests", phase: "patched", output: 3, at })],
      ["completed", JSON.stringify(examples[4])],
      ["step", "null"],
    ];
    for (const [name, data] of bad) expect(parseRunEvent(name, data), `${name} ${data}`).toBeNull();
    expect(warn).toHaveBeenCalledTimes(bad.length);
  });

  it("reads the snapshot as a whole run and ignores one that is not", () => {
    const snapshot = {
      ...run,
      id: "r1",
      kind: "solve",
      issueId: "i1",
      modelId: "m1",
      solutionId: null,
      error: null,
      tokensIn: 0,
      tokensOut: 0,
      costUsd: 0,
      attempts: 1,
      startedAt: null,
      finishedAt: null,
      steps: run.steps.map((s) => ({ ...s, id: "context", durationMs: null, tokensIn: 0, tokensOut: 0 })),
      actions: actionsOf(standing({ gone: "transferred", moved_to: "https://github.com/octocat/elsewhere/issues/7" })),
    };
    expect(parseRunSnapshot(JSON.stringify(snapshot))).toEqual(snapshot);
    expect(warn).not.toHaveBeenCalled();
    expect(parseRunSnapshot(JSON.stringify({ ...snapshot, status: "sleeping" }))).toBeNull();
    expect(parseRunSnapshot(JSON.stringify({ ...snapshot, steps: null }))).toBeNull();
    // What may be done next comes with the run: a snapshot missing an action, or one that says nothing of a refusal, is not a run.
    const { push: _push, ...fewer } = snapshot.actions;
    expect(parseRunSnapshot(JSON.stringify({ ...snapshot, actions: fewer }))).toBeNull();
    expect(
      parseRunSnapshot(JSON.stringify({ ...snapshot, actions: { ...fewer, push: { allowed: false } } })),
    ).toBeNull();
    expect(warn).toHaveBeenCalledTimes(4);
  });
});

describe("a read of the run that answers after the stream's events", () => {
  const at = "2026-01-01T00:00:05Z";
  /** A read of the run in flight whose answer (what Postgres said when it was sent) is released by hand. */
  function slowRead(qc: QueryClient, answer: Run) {
    let release: () => void = () => {};
    const gate = new Promise<void>((r) => (release = r));
    const read = qc.fetchQuery({ queryKey: runQuery("r1").queryKey, queryFn: () => gate.then(() => answer) });
    return { release, read: read.catch(() => undefined) };
  }

  it("never puts an older run back over the stream's end (Cancel's read answering after the cancelled event)", async () => {
    const qc = new QueryClient();
    applySnapshot(qc, "r1", { ...run, status: "running" });
    const stale = { ...run, status: "running" } as Run;
    const { release, read } = slowRead(qc, stale);
    applyRunEvent(
      qc,
      "r1",
      { type: "step", step: "context", status: "failed", detail: run.steps[1]!.detail, at },
      "1-0",
    );
    applyRunEvent(qc, "r1", { type: "cancelled", at }, "2-0");
    release();
    await read;
    const cached = qc.getQueryData(runQuery("r1").queryKey);
    expect(cached?.status).toBe("cancelled");
    expect(cached?.steps[1]?.status).toBe("failed");
  });

  it("keeps a read that answers before the next event, and one that starts after it", async () => {
    const qc = new QueryClient();
    applySnapshot(qc, "r1", { ...run, status: "running" });
    const first = slowRead(qc, { ...run, status: "running", currentStep: "context" } as Run);
    first.release();
    await first.read;
    expect(qc.getQueryData(runQuery("r1").queryKey)?.currentStep).toBe("context");
    applyRunEvent(qc, "r1", { type: "cancelled", at }, "3-0");
    const later = slowRead(qc, { ...run, status: "cancelled", currentStep: "analyzing" } as Run);
    later.release();
    await later.read;
    expect(qc.getQueryData(runQuery("r1").queryKey)).toMatchObject({ status: "cancelled", currentStep: "analyzing" });
  });
});

describe("a run stopped for a reason other than Cancel", () => {
  const at = "2026-01-01T00:00:05Z";
  const gone = { code: "issue.gone", message: "The issue was deleted on GitHub, so this run was stopped" };

  it("keeps the reason its cancelled event carries, and the page says it", () => {
    const qc = new QueryClient();
    applySnapshot(qc, "r1", { ...run, status: "running" } as Run);
    applyRunEvent(qc, "r1", { type: "cancelled", error: gone, at }, "4-0");
    const cached = qc.getQueryData(runQuery("r1").queryKey);
    expect(cached).toMatchObject({ status: "cancelled", error: gone });
    expect(stoppedReason(cached)).toBe(gone.message);
  });

  it("says so when the run's repository left the user's list on GitHub", () => {
    const qc = new QueryClient();
    applySnapshot(qc, "r1", { ...run, status: "running" } as Run);
    applyRunEvent(qc, "r1", { type: "cancelled", error: REPOSITORY_ACCESS_LOST, at }, "6-0");
    expect(stoppedReason(qc.getQueryData(runQuery("r1").queryKey))).toBe(
      "You no longer have access to this repository on GitHub, so this run was stopped",
    );
  });

  it("says nothing more for a plain Cancel, with or without its error, nor for a run that did not end cancelled", () => {
    const qc = new QueryClient();
    applySnapshot(qc, "r1", { ...run, status: "running", error: null } as Run);
    applyRunEvent(qc, "r1", { type: "cancelled", at }, "5-0");
    expect(stoppedReason(qc.getQueryData(runQuery("r1").queryKey))).toBeNull();
    const cancelled = { code: "run.cancelled", message: "The run was cancelled" };
    expect(stoppedReason({ status: "cancelled", error: cancelled })).toBeNull();
    expect(stoppedReason({ status: "failed", error: gone })).toBeNull();
    expect(stoppedReason(undefined)).toBeNull();
  });
});
