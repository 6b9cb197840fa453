import { describe, expect, it } from "vitest";
import { applyTests, EMPTY_TESTS_LOG, LOG_KEEP_CHARS } from "./tests-log";

const ev = (phase: "base" | "patched" | "repair", output: string, passed: number, done = false) => ({
  phase,
  output,
  counts: { passed, failed: 0, errored: 0 },
  done,
  at: "2026-01-01T00:00:00Z",
});

describe("applyTests", () => {
  it("appends each phase's output in the order the phases started and keeps the latest counts", () => {
    let log = applyTests(EMPTY_TESTS_LOG, ev("base", "ok 1 - a\n", 1), "1-0");
    log = applyTests(log, ev("base", "ok 2 - b\n", 2, true), "1-1");
    log = applyTests(log, ev("patched", "ok 1 - a\n", 1), "2-0");
    expect(log.phases.map((p) => [p.phase, p.output, p.counts.passed, p.done])).toEqual([
      ["base", "ok 1 - a\nok 2 - b\n", 2, true],
      ["patched", "ok 1 - a\n", 1, false],
    ]);
    expect(log.lastId).toBe("2-0");
  });

  it("ignores an event it already folded in, so a replayed stream adds nothing twice", () => {
    const once = applyTests(applyTests(EMPTY_TESTS_LOG, ev("base", "x\n", 1), "5-0"), ev("base", "y\n", 2), "10-0");
    expect(applyTests(once, ev("base", "x\n", 1), "5-0")).toBe(once);
    expect(applyTests(once, ev("base", "y\n", 2), "10-0")).toBe(once);
    expect(applyTests(once, ev("base", "z\n", 3), "10-1").phases[0]?.output).toBe("x\ny\nz\n");
  });

  it("keeps only the tail of a long output and counts what it dropped", () => {
    const big = "a".repeat(LOG_KEEP_CHARS);
    const log = applyTests(applyTests(EMPTY_TESTS_LOG, ev("base", big, 0), "1-0"), ev("base", "tail\n", 0), "2-0");
    const phase = log.phases[0];
    expect(phase?.output.length).toBe(LOG_KEEP_CHARS);
    expect(phase?.output.endsWith("tail\n")).toBe(true);
    expect(phase?.dropped).toBe(5);
  });

  it("starts a phase afresh when it runs again after it had ended (a retried job)", () => {
    const ended = applyTests(
      applyTests(EMPTY_TESTS_LOG, ev("base", "first run\n", 1, true), "1-0"),
      ev("patched", "p\n", 1, true),
      "2-0",
    );
    const again = applyTests(ended, ev("base", "second run\n", 1), "3-0");
    expect(again.phases.map((p) => [p.phase, p.output, p.done])).toEqual([
      ["base", "second run\n", false],
      ["patched", "p\n", true],
    ]);
  });
});
