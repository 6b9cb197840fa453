import { describe, expect, it } from "vitest";
import type { PhaseRun } from "../tests-run/compare";
import { judge } from "./backtest.verify";

const run = (results: Record<string, "pass" | "fail" | "error">): PhaseRun => ({
  counts: { passed: 0, failed: 0, errored: 0, durationMs: 0 },
  results,
  runners: ["node-test"],
  exitCode: 0,
  timedOut: false,
  setupFailed: false,
  logTail: "",
});

describe("judging a solve against the pull request's own tests", () => {
  // Base + the pull request's tests: its new test fails, an old one passes, an unrelated one fails throughout.
  const before = run({ "removes a todo": "fail", "lists todos": "pass", pages: "fail" });
  const gold = run({ "removes a todo": "pass", "lists todos": "pass", pages: "fail" });

  it("verifies a patch that turns the fixed tests green and keeps the passing ones", () => {
    expect(judge(before, gold, run({ "removes a todo": "pass", "lists todos": "pass", pages: "fail" }))).toEqual({
      verified: true,
      reason: null,
      detail: "The pull request's failing tests pass with the solve's patch: \"removes a todo\"",
    });
  });

  it("says why a patch is not verified", () => {
    expect(judge(before, gold, run({ "removes a todo": "error", "lists todos": "pass" }))).toMatchObject({
      verified: false,
      reason: "still_failing",
      detail: 'Still failing with the solve\'s patch: "removes a todo"',
    });
    expect(judge(before, gold, run({ "removes a todo": "pass", "lists todos": "fail" }))).toMatchObject({
      reason: "still_failing",
      detail: 'The solve\'s patch breaks tests that pass with the pull request: "lists todos"',
    });
    expect(judge(gold, gold, gold)).toMatchObject({ verified: false, reason: "not_failing_before" });
  });

  it("cuts the repository's test names short", () => {
    const long = "x".repeat(500);
    const v = judge(run({ [long]: "fail" }), run({ [long]: "pass" }), run({}));
    expect(v.detail.length).toBeLessThan(150);
  });
});
