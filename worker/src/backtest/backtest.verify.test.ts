import { describe, expect, it } from "vitest";
import type { PhaseRun } from "../tests-run/compare";
import { judge, judgeByExit } from "./backtest.verify";

const run = (results: Record<string, "pass" | "fail" | "error">, exitCode = 0, logTail = ""): PhaseRun => ({
  counts: { passed: 0, failed: 0, errored: 0, durationMs: 0 },
  results,
  runners: ["node-test"],
  exitCode,
  timedOut: false,
  setupFailed: false,
  logTail,
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

  it("judges by exit codes when the runner names no tests, and says when the tests cannot run at all", () => {
    const exit = (code: number, log = "") => ({ ...run({}, code, log), runners: [] });
    expect(judgeByExit(exit(1), exit(0), exit(0))).toMatchObject({ verified: true, reason: null });
    expect(judgeByExit(exit(1), exit(0), exit(1, "1 failing\n"))).toMatchObject({
      reason: "still_failing",
      detail: "The tests still fail with the solve's patch (exit code 1: 1 failing)",
    });
    expect(judgeByExit(exit(0), exit(0), exit(0))).toMatchObject({ reason: "not_failing_before" });
    // No toolchain for the repository's language (a Go repository here): not the solve's fault.
    expect(judgeByExit(exit(127), exit(127, "sh: 1: go: not found\n"), exit(127))).toEqual({
      verified: false,
      reason: "could_not_run",
      detail: "The tests do not pass with the pull request's own change (exit code 127: sh: 1: go: not found)",
    });
  });
});
