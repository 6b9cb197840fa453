import { describe, expect, it } from "vitest";
import type { GeneratedCandidate } from "@fixloop/contract";
import { dedupeCandidates, normalisedPatch } from "../generating/candidates.dedup";
import { evidenceOf } from "./candidates.judge";
import { rankCandidates, type Judged } from "./candidates.rank";
import { abstain } from "./abstention";

const cand = (n: number, content: string, original = "a\nb\n"): GeneratedCandidate => ({
  n,
  variation: "v",
  analysis: "",
  proposedSolution: "",
  confidence: 50,
  filesChanged: [{ filename: "src/x.js", action: "modify", content, originalContent: original }],
  duplicates: [],
});
const judged = (
  c: GeneratedCandidate,
  t: { regressions?: string[]; fixed?: string[]; ran?: boolean } = {},
): Judged => ({
  candidate: c,
  evidence: {
    ...evidenceOf(c, false, null),
    testsRan: t.ran ?? true,
    status: "passed",
    regressions: t.regressions ?? [],
    fixed: t.fixed ?? [],
  },
});

describe("candidate dedup", () => {
  it("treats patches that differ only in whitespace or line endings as one, counting the others as votes", () => {
    expect(normalisedPatch(cand(1, "a = 1;\r\nb\r\n").filesChanged)).toBe(
      normalisedPatch(cand(2, "a=1;\n\n  b\n").filesChanged),
    );
    const out = dedupeCandidates([cand(1, "a = 1;\n"), cand(2, "x\n"), cand(3, "a=1;\r\n"), cand(4, " a =1;")]);
    expect(out.map((c) => [c.n, c.duplicates])).toEqual([
      [1, [3, 4]],
      [2, []],
    ]);
  });
});

describe("candidate ranking", () => {
  it("puts no regressions before tests fixed, tests fixed before votes, votes before size", () => {
    const regress = judged(cand(1, "r\n"), { regressions: ["t1"], fixed: ["a", "b"] });
    const fixes = judged(cand(2, "f\nlonger\nchange\n"), { fixed: ["a"] });
    const small = judged(cand(3, "s\n"));
    const voted = judged({ ...cand(4, "v\nlong\n"), duplicates: [5] });
    const r = rankCandidates([regress, fixes, small, voted], 5);
    expect(r.winner).toBe(2);
    expect(r.candidates.map((c) => [c.n, c.rank])).toEqual([
      [1, 4],
      [2, 1],
      [3, 3],
      [4, 2],
    ]);
    expect(r.reason).toBe(
      "Candidate 2 won: it fixes 1 failing test against 0 for candidate 4; it fixes 1 failing test against 0 for candidate 3; candidate 1 breaks 1 test that passed before (t1).",
    );
    expect(r.candidates.find((c) => c.n === 3)?.rankReason).toContain("against candidate 2, it fixes 1 failing test");
  });

  it("breaks equal evidence by agreement, then by the smaller change", () => {
    const big = judged(cand(1, "one\ntwo\nthree\nfour\n"));
    const small = judged(cand(2, "one\n"));
    expect(rankCandidates([big, small], 2).reason).toBe(
      "Candidate 2 won: it is the smaller change (3 changed lines against 6 for candidate 1).",
    );
    const agreed = judged({ ...cand(1, "one\ntwo\nthree\nfour\n"), duplicates: [3] });
    expect(rankCandidates([agreed, small], 3).reason).toBe(
      "Candidate 1 won: 2 of 3 candidates agree on it, against 1 for candidate 2.",
    );
  });
});

describe("reproduction and abstention", () => {
  const repro = (j: Judged, status: "fixed" | "still-failing"): Judged => ({
    ...j,
    evidence: { ...j.evidence, reproduction: { test: "test/r.test.js", status } },
  });
  const kept = {
    filename: "test/r.test.js",
    content: "",
    status: "kept" as const,
    note: "",
    failing: ["r"],
    passesWithSolution: null,
  };

  it("ranks the candidate that makes the reproduction test pass first, before regressions and fixed tests", () => {
    const fixesMore = repro(judged(cand(1, "a\n"), { fixed: ["x", "y"] }), "still-failing");
    const reproduces = repro(judged(cand(2, "b\nlonger\n")), "fixed");
    const r = rankCandidates([fixesMore, reproduces], 2);
    expect(r.winner).toBe(2);
    expect(r.reason).toBe(
      "Candidate 2 won: it makes the reproduction test pass; candidate 1 does not (it still fails).",
    );
  });

  it("abstains when no candidate has positive evidence, saying why; not when one has", () => {
    const regress = judged(cand(1, "a\n"), { regressions: ["t"] });
    const noRun = judged(cand(2, "b\n"), { ran: false });
    const passes = repro(judged(cand(3, "c\n")), "still-failing");
    expect(abstain([regress.evidence], null)?.reason).toBe("The change breaks tests that passed before (t).");
    expect(abstain([{ ...noRun.evidence, status: "skipped", reason: "sandbox off" }], null)?.reason).toBe(
      "No test ran (sandbox off): nothing shows that the change fixes the issue.",
    );
    expect(abstain([repro(regress, "fixed").evidence, passes.evidence], kept)?.reason).toBe(
      "No candidate passes both the tests without regressions and the reproduction test.",
    );
    expect(abstain([passes.evidence], kept)?.reason).toBe(
      "The change does not make the reproduction test (test/r.test.js) pass.",
    );
    // Passing before and after with nothing fixed and no reproduction kept is no regression found, not proof.
    expect(abstain([passes.evidence], null)?.reason).toMatch(/^No regression found/);
    expect(abstain([judged(cand(5, "e\n"), { fixed: ["was failing"] }).evidence], null)).toBeNull();
    expect(abstain([regress.evidence, repro(judged(cand(4, "d\n")), "fixed").evidence], kept)).toBeNull();
  });
});
