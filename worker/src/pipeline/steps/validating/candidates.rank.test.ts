import { describe, expect, it } from "vitest";
import type { GeneratedCandidate } from "@fixloop/contract";
import { dedupeCandidates, normalisedPatch } from "../generating/candidates.dedup";
import { evidenceOf } from "./candidates.judge";
import { rankCandidates, type Judged } from "./candidates.rank";

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
