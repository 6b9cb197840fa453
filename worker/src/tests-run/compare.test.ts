import { describe, expect, it } from "vitest";
import { SolutionTests, testsVerdict } from "@fixloop/contract";
import { compareRuns, missingTool, statusOf, type PhaseRun } from "./compare";
import { solutionTests, type Attempt } from "./evidence";

const run = (o: Partial<PhaseRun> = {}): PhaseRun => ({
  counts: { passed: 0, failed: 0, errored: 0, durationMs: 1 },
  results: {},
  runners: [],
  exitCode: 0,
  timedOut: false,
  setupFailed: false,
  logTail: "",
  ...o,
});
const named = (results: PhaseRun["results"], exitCode = 0) => run({ results, runners: ["tap"], exitCode });
const verdictOf = (base: PhaseRun, patched: PhaseRun) => {
  const first: Attempt = { label: "first", run: patched, cmp: compareRuns(base, patched), files: [] };
  return testsVerdict(SolutionTests.parse(solutionTests("bwrap", "npm test", base, [first], first, 30_000))).text;
};

describe("comparing test runs", () => {
  it("never makes a fixed test or a regression from an absent exit code (cancelled, timed out, setup failed)", () => {
    const ok = run({ exitCode: 0 });
    for (const stopped of [
      run({ exitCode: null, cancelled: true }),
      run({ exitCode: null, timedOut: true }),
      run({ exitCode: 1, setupFailed: true }),
      run({ exitCode: null }),
    ]) {
      expect(compareRuns(ok, stopped)).toMatchObject({ fixed: [], regressions: [] });
      expect(compareRuns(stopped, ok)).toMatchObject({ fixed: [], regressions: [] });
    }
    expect(verdictOf(ok, run({ exitCode: null, cancelled: true }))).toBe("could not run: cancelled");
    expect(verdictOf(ok, run({ exitCode: null, timedOut: true }))).toBe("could not run: timed out after 30 s");
    expect(verdictOf(ok, run({ exitCode: 2, setupFailed: true }))).toBe("could not run: setup failed (exit code 2)");
    expect(verdictOf(ok, run({ exitCode: null }))).toBe("could not run: the test command ended without an exit code");
  });

  it("calls an exit code that went 0 → 1 a regression, and names pre-existing failures", () => {
    expect(verdictOf(run({ exitCode: 0 }), run({ exitCode: 1 }))).toBe("regressions: test command exit code 0 → 1");
    expect(verdictOf(run({ exitCode: 1 }), run({ exitCode: 0 }))).toBe("passed");
    const base = named({ "parses dates": "fail", adds: "pass", trims: "fail" }, 1);
    const after = named({ "parses dates": "fail", adds: "pass", trims: "pass" }, 1);
    expect(compareRuns(base, after)).toMatchObject({ fixed: ["trims"], preexisting: ["parses dates"] });
    expect(verdictOf(base, after)).toBe("passed with pre-existing failures: parses dates");
    const broken = named({ "parses dates": "fail", adds: "fail", trims: "fail" }, 1);
    expect(verdictOf(base, broken)).toBe("regressions: adds");
    expect(statusOf(base, broken, compareRuns(base, broken), 1000).status).toBe("failed");
  });

  it("calls a patch that stops the named tests from running a regression, not a failure 'as before'", () => {
    const base = named({ adds: "pass", "parses dates": "fail" }, 1);
    // cargo that no longer compiles, jest whose suites fail to load, pytest's collection error:
    // the same exit code as the base's one failing test, and no test named.
    for (const exitCode of [1, 2, 101]) {
      const broken = run({ exitCode, runners: [], results: {}, logTail: "error: could not compile\n" });
      const cmp = compareRuns(base, broken);
      expect(cmp.regressions).toEqual(["adds (no longer runs)"]);
      expect(statusOf(base, broken, cmp, 1000).status).toBe("failed");
      expect(verdictOf(base, broken)).toBe("regressions: adds (no longer runs)");
    }
  });

  it("judges a run that named its tests by them, whatever a test printed about a command not found", () => {
    const base = named({ works: "pass", other: "pass" }, 0);
    const after = run({
      results: { works: "fail", other: "pass" },
      runners: ["tap"],
      exitCode: 1,
      logTail: "sh: 1: convert: not found\nnot ok 1 - works\n",
    });
    expect(statusOf(base, after, compareRuns(base, after), 1000)).toMatchObject({ status: "failed" });
    expect(verdictOf(base, after)).toBe("regressions: works");
    // Exit 127 still says the toolchain is missing, named tests or not (`pytest && go test`).
    const partial = run({
      results: { works: "pass" },
      runners: ["tap"],
      exitCode: 127,
      logTail: "sh: 1: go: not found\n",
    });
    expect(verdictOf(base, partial)).toBe("could not run: go not found");
  });

  it("lists no pre-existing failure for a missing toolchain: the tests could not run, before and after", () => {
    const go = run({ exitCode: 127, logTail: "$ go test ./...\nsh: 1: go: not found\n" });
    expect(compareRuns(go, go)).toEqual({ fixed: [], added: [], regressions: [], preexisting: [], failing: [] });
    const first: Attempt = { label: "first", run: go, cmp: compareRuns(go, go), files: [] };
    const tests = SolutionTests.parse(solutionTests("bwrap", "go test ./...", go, [first], first, 30_000));
    expect(tests).toMatchObject({ status: "error", cause: "toolchain", preexisting: [], fixed: [] });
    expect(testsVerdict(tests).kind).toBe("could-not-run");
    // Missing on one side only: still no comparison (nothing ran there to compare with).
    const ok = run({ exitCode: 1, logTail: "FAIL\n" });
    expect(compareRuns(go, ok).preexisting).toEqual([]);
    expect(compareRuns(ok, go).preexisting).toEqual([]);
  });

  it("names a missing toolchain from the shell's message or exit 127", () => {
    expect(missingTool(127, "sh: 1: go: not found\n")).toBe("go");
    expect(missingTool(127, "bash: line 1: cargo: command not found\n")).toBe("cargo");
    expect(missingTool(1, "> jest\nsh: 1: jest: not found\n")).toBe("jest");
    expect(missingTool(127, "")).toBe("a command");
    expect(missingTool(1, "expected user: not found in db")).toBeNull();
    expect(missingTool(0, "sh: 1: go: not found")).toBeNull();
    const go = run({ exitCode: 127, logTail: "$ go test ./...\nsh: 1: go: not found\n" });
    expect(verdictOf(go, go)).toBe("could not run: go not found");
    const setup = run({ exitCode: 127, setupFailed: true, logTail: "sh: 1: npm: not found\n" });
    expect(verdictOf(run(), setup)).toBe("could not run: npm not found");
  });

  it("says a stale or not-run evidence in the same vocabulary", () => {
    const t = SolutionTests.parse(
      solutionTests(
        "bwrap",
        "npm test",
        run(),
        [],
        { label: "first", run: run(), cmp: compareRuns(run(), run()), files: [] },
        1000,
      ),
    );
    // Passing before and after with nothing fixed is no regression found, not a pass that proves the fix.
    expect(testsVerdict(t).text).toBe("no regression found");
    expect(testsVerdict({ ...t, fixed: ["parses dates"] }).text).toBe("passed");
    expect(testsVerdict({ ...t, stale: { at: "2026-01-01T00:00:00Z", by: "edit" } }).text).toBe(
      "not run on the edited code",
    );
    expect(testsVerdict({ ...t, status: "skipped", backend: "off", command: null }).text).toBe("not run: sandbox off");
  });
});
