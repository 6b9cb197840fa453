import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { describe, expect, it } from "vitest";
import { compareRuns, statusOf, type PhaseRun } from "./compare";
import { TestOutputParser, type ParsedRun } from "./parse";
import { MAX_NAME, MAX_RESULTS } from "./parse.types";

/** Feeds `lines` in 64 KiB chunks, as a pipe delivers a flood of output. */
function flood(lines: Iterable<string>, p = new TestOutputParser()): TestOutputParser {
  let chunk = "";
  for (const l of lines) {
    chunk += `${l}\n`;
    if (chunk.length >= 65_536) {
      p.feed(chunk);
      chunk = "";
    }
  }
  p.feed(chunk);
  return p;
}

function* numbered(n: number, line: (i: number) => string): Generator<string> {
  for (let i = 1; i <= n; i++) yield line(i);
}

setFlagsFromString("--expose-gc");
const gc = runInNewContext("gc") as () => void;
const heapAfterGc = () => {
  gc();
  return process.memoryUsage().heapUsed;
};

const phase = (parsed: ParsedRun, exitCode: number): PhaseRun => ({
  counts: { ...parsed.counts, durationMs: 1 },
  results: parsed.results,
  ...(parsed.truncated ? { truncated: parsed.truncated } : {}),
  runners: parsed.runners,
  exitCode,
  timedOut: false,
  setupFailed: false,
  logTail: "",
});

describe("the parser against a flood of unique test names", () => {
  it("keeps at most MAX_RESULTS names from 300,000 TAP results, counts what it kept and says the rest was cut", () => {
    const p = flood(numbered(300_000, (i) => `ok ${i} - unique test ${i} ${"x".repeat(40)}`));
    const live = p.counts();
    p.feed("not ok 300001 - the failure after the cap\nnot ok 7 - unique test 7 " + "x".repeat(40) + "\n");
    const r = p.finish();
    expect(Object.keys(r.results)).toHaveLength(MAX_RESULTS);
    expect(live).toEqual({ passed: MAX_RESULTS, failed: 0, errored: 0 });
    // A kept test that fails later still counts; the new name past the cap is counted, not named.
    expect(r.results[`unique test 7 ${"x".repeat(40)}`]).toBe("fail");
    expect(r.results["the failure after the cap"]).toBeUndefined();
    expect(r.counts).toEqual({ passed: MAX_RESULTS - 1, failed: 1, errored: 0 });
    expect(r.truncated).toEqual({ results: 300_001 - MAX_RESULTS, failing: 1 });
  });

  it("cuts a long name to MAX_NAME characters and keeps two long names apart", () => {
    const long = (i: number) => `${"n".repeat(3_900)}${i}`;
    const r = flood(numbered(1_000, (i) => `ok ${i} - ${long(i)}`)).finish();
    const names = Object.keys(r.results);
    expect(names).toHaveLength(1_000);
    expect(Math.max(...names.map((n) => n.length))).toBeLessThanOrEqual(MAX_NAME);
    expect(r.counts.passed).toBe(1_000);
    // The same long name in another run is the same key, so base and patched still match.
    expect(Object.keys(flood([`ok 1 - ${long(1)}`]).finish().results)).toEqual([names[0]]);
    expect(flood(["ok 1 - short"]).finish()).toEqual({
      runners: ["node-tap"],
      results: { short: "pass" },
      counts: { passed: 1, failed: 0, errored: 0 },
    });
  });

  it("holds no more than its names: a kept name does not keep the output chunk it came in alive", () => {
    // Each 64 KiB read carries one new short name: kept as a slice of its chunk, 20,000 of them
    // held 1.3 GB; the parser itself must stay within a few dozen MB however much output passed.
    const junk = "#".repeat(64 * 1024);
    const before = heapAfterGc();
    const p = new TestOutputParser();
    for (let i = 1; i <= MAX_RESULTS + 1_000; i++) p.feed(`ok ${i} - a name long enough to be a slice ${i}\n${junk}\n`);
    const held = heapAfterGc() - before;
    expect(p.finish().truncated).toEqual({ results: 1_000, failing: 0 });
    expect(held).toBeLessThan(64 * 1024 * 1024);
  });

  it("caps every runner's format the same way: jest, pytest, go -json, cargo and jest --json", () => {
    const n = MAX_RESULTS + 5_000;
    const runs: [string, (i: number) => string, string][] = [
      ["jest", (i) => `  ✓ adds ${i} (1 ms)`, "  ✕ breaks after the cap (1 ms)"],
      ["pytest", (i) => `PASSED tests/test_x.py::test_${i}`, "FAILED tests/test_x.py::test_after_cap - boom"],
      ["go", (i) => `{"Action":"pass","Package":"ex/a","Test":"Test${i}"}`, '{"Action":"fail","Package":"ex/b"}'],
      ["cargo", (i) => `test t::n${i} ... ok`, "test t::after_cap ... FAILED"],
    ];
    for (const [runner, line, failure] of runs) {
      const r = flood([...numbered(n, line), failure]).finish();
      expect(r.runners, runner).toEqual([runner]);
      expect(Object.keys(r.results), runner).toHaveLength(MAX_RESULTS);
      expect(r.counts, runner).toEqual({ passed: MAX_RESULTS, failed: 0, errored: 0 });
      expect(r.truncated, runner).toEqual({ results: n - MAX_RESULTS + 1, failing: 1 });
    }
    const json = JSON.stringify({
      numTotalTests: n,
      testResults: [
        {
          name: "a.test.js",
          assertionResults: [
            ...Array.from({ length: n }, (_, i) => ({ fullName: `adds ${i}`, status: "passed" })),
            { fullName: "breaks", status: "failed" },
          ],
        },
      ],
    });
    const r = flood([json]).finish();
    expect(Object.keys(r.results)).toHaveLength(MAX_RESULTS);
    expect(r.truncated).toEqual({ results: n - MAX_RESULTS + 1, failing: 1 });
  });

  it("never turns a failure past the cap into a passing verdict", () => {
    const passes = () => numbered(MAX_RESULTS + 10_000, (i) => `ok ${i} - test ${i}`);
    // The base run: one known failure, then more passing tests than are kept.
    const base = phase(flood(["not ok 1 - flaky", ...passes()]).finish(), 1);
    // The patched run: the same, and a new failure that only appears past the cap.
    const after = phase(flood(["not ok 1 - flaky", ...passes(), "not ok 99999 - broken by the patch"]).finish(), 1);
    expect(after.truncated).toEqual({ results: 10_002, failing: 1 });
    const cmp = compareRuns(base, after);
    expect(cmp.preexisting).toEqual(["flaky"]);
    expect(cmp.failing).toEqual([`1 failing result(s) past the first ${MAX_RESULTS} (not named)`]);
    expect(statusOf(base, after, cmp, 1000).status).toBe("failed");
    // Even with an exit code of 0 the dropped failure is not a pass.
    expect(statusOf(base, { ...after, exitCode: 0 }, compareRuns(base, { ...after, exitCode: 0 }), 1000).status).toBe(
      "failed",
    );
    // With nothing failing past the cap the same runs pass (pre-existing failure only), and a
    // name missing from a truncated base run is not claimed as a test the patch added.
    const clean = phase(flood(["not ok 1 - flaky", ...passes(), "ok 99999 - new test"]).finish(), 1);
    const ok = compareRuns(base, clean);
    expect(ok).toMatchObject({ failing: [], regressions: [], added: [] });
    expect(statusOf(base, clean, ok, 1000).status).toBe("passed");
  });
});
