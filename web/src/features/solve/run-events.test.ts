import { describe, expect, it } from "vitest";
import type { Run } from "../../api/runs.queries";
import { applyStep } from "./run-events";

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
