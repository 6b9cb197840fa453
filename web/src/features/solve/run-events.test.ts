import { describe, expect, it } from "vitest";
import type { Run } from "../../api/runs.queries";
import { applyStep } from "./run-events";

const step = (id: string) => ({ id, label: id, status: "pending", detail: { files: [], info: [], warnings: [] }, startedAt: null, finishedAt: null });
const run = { _id: "r1", status: "queued", currentStep: null, createdAt: "2026-01-01T00:00:00Z", steps: ["analyzing", "context"].map(step) } as unknown as Run;

describe("applyStep", () => {
  it("folds a step event into the cached run and marks the run running", () => {
    const detail = { files: ["a.ts"], info: ["1 file"], warnings: [], score: 90 };
    const started = applyStep(run, { step: "analyzing", status: "running", detail, at: "2026-01-01T00:00:01Z" });
    const done = applyStep(started, { step: "analyzing", status: "completed", detail, at: "2026-01-01T00:00:03Z" });
    expect(done.status).toBe("running");
    expect(done.currentStep).toBe("analyzing");
    expect(done.steps[0]).toMatchObject({ status: "completed", detail, startedAt: "2026-01-01T00:00:01Z", finishedAt: "2026-01-01T00:00:03Z" });
    expect(done.steps[1]?.status).toBe("pending");
  });
});
