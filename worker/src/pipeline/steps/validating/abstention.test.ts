import { describe, expect, it } from "vitest";
import type { SolutionReproduction, SolutionTests } from "@fixloop/contract";
import { abstain, attemptEvidence } from "./abstention";

const tests = (o: Partial<SolutionTests> = {}): SolutionTests => ({
  command: "python3 -m pytest -rA",
  backend: "bwrap",
  base: { passed: 31, failed: 0, errored: 0, durationMs: 1 },
  patched: { passed: 31, failed: 0, errored: 0, durationMs: 1 },
  fixed: [],
  regressions: [],
  logTail: "",
  status: "passed",
  attempts: [],
  ...o,
});
const repro = (status: "kept" | "discarded"): SolutionReproduction => ({
  filename: "tests/test_issue.py",
  content: "def test_issue():\n    assert False\n",
  status,
  note: "",
  failing: status === "kept" ? ["tests/test_issue.py::test_issue"] : [],
  passesWithSolution: null,
});

describe("abstention: evidence is positive only when it touches the change", () => {
  it("leaves a change unverified when its tests pass before and after with nothing fixed", () => {
    const u = abstain([attemptEvidence(tests(), false, null)], null);
    expect(u?.reason).toMatch(/^No regression found, but no test that concerns the change/);
  });

  it("never counts a new test (absent from the base tree) as proof", () => {
    const t = tests({ added: ["tests/test_new.py::test_new"] });
    expect(abstain([attemptEvidence(t, false, null)], null)).not.toBeNull();
  });

  it("verifies a change that makes a test that failed on the base tree pass", () => {
    const t = tests({ fixed: ["tests/test_pow.py::test_zero_power"] });
    expect(abstain([attemptEvidence(t, false, null)], null)).toBeNull();
  });

  it("verifies a change that makes the kept reproduction test pass, and not one that leaves it failing", () => {
    expect(
      abstain([attemptEvidence(tests(), false, { test: "tests/test_issue.py", status: "fixed" })], repro("kept")),
    ).toBeNull();
    const still = abstain(
      [attemptEvidence(tests(), false, { test: "tests/test_issue.py", status: "still-failing" })],
      repro("kept"),
    );
    expect(still?.reason).toContain("reproduction test (tests/test_issue.py)");
  });

  it("does not verify a fixed test when a regression came with it, nor a blocked change", () => {
    const t = tests({ status: "failed", fixed: ["a"], regressions: ["b"] });
    expect(abstain([attemptEvidence(t, false, null)], null)).not.toBeNull();
    expect(abstain([attemptEvidence(tests({ fixed: ["a"] }), true, null)], null)).not.toBeNull();
  });

  it("proves a change no repository test relates to only by its kept reproduction test", () => {
    const none = tests({ status: "skipped", base: null, patched: null, noneRelated: true, reason: "no related test" });
    const fixed = { test: "tests/test_issue.py", status: "fixed" } as const;
    expect(abstain([attemptEvidence(none, false, fixed)], repro("kept"))).toBeNull();
    // Without a reproduction test that failed on the base tree and passes now, nothing ran that could prove it.
    expect(abstain([attemptEvidence(none, false, null)], null)?.reason).toMatch(/^No test ran \(no related test\)/);
    expect(abstain([attemptEvidence(none, false, fixed)], repro("discarded"))).not.toBeNull();
    const still = { test: "tests/test_issue.py", status: "still-failing" } as const;
    expect(abstain([attemptEvidence(none, false, still)], repro("kept"))).not.toBeNull();
  });

  it("lets a documentation-only change through unless a configured command regressed, never when blocked", () => {
    const docs = tests({ status: "skipped", base: null, patched: null, docsOnly: true, reason: "documentation only" });
    expect(abstain([attemptEvidence(docs, false, null)], null)).toBeNull();
    // A configured command still ran on it: a regression there leaves it unverified.
    const broke = tests({ docsOnly: true, status: "failed", regressions: ["tests/test_docs.py::test_links"] });
    expect(abstain([attemptEvidence(broke, false, null)], null)?.reason).toMatch(/breaks tests that passed before/);
    expect(abstain([attemptEvidence(docs, true, null)], null)?.reason).toMatch(/blocked by the policy checks/);
  });
});
