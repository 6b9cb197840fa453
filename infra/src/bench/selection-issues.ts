import fs from "node:fs";
import path from "node:path";
import type { GeneratedSolution } from "@fixloop/contract";

/** One scripted issue: a tiny repository whose one test fails on base, and its candidates by kind. */
export interface SelectionIssue {
  title: string;
  file: string;
  source: string;
  tests: string;
  /** The stand-in's reproduction test: fails on base, passes with the good candidate. */
  reproduction: string;
  answers: Record<CandidateKind, GeneratedSolution>;
}

export type CandidateKind = "good" | "regressing" | "no-fix" | "larger";
/** Known-bad candidates in the order they join a run; the good one takes the slot `i % N`. */
const BAD: CandidateKind[] = ["regressing", "no-fix", "larger"];

/** A run of issue `i` with N candidates and no known-good one: regressing and not-fixing ones in turn. */
export function badKinds(i: number, n: number): CandidateKind[] {
  return Array.from({ length: n }, (_, k) => ((k + i) % 2 === 0 ? "regressing" : "no-fix"));
}

/** The candidates a run of issue `i` with N candidates is scripted to get, and where the good one is. */
export function scriptedKinds(i: number, n: number): CandidateKind[] {
  const kinds = BAD.slice(0, n - 1);
  kinds.splice(i % n, 0, "good");
  return kinds;
}

const answer = (file: string, search: string, replace: string): GeneratedSolution => ({
  analysis: "Scripted candidate.",
  proposedSolution: "Scripted candidate.",
  confidence: 70,
  files: [{ filename: file, action: "modify", edits: [{ search, replace }] }],
});

/** Issue `i`: `clamp${i}` lets values through at the upper bound + 1; tests check both bounds. */
export function selectionIssue(i: number): SelectionIssue {
  const file = `src/clamp${i}.js`;
  const bug = `  if (x > hi + 1) return hi;\n`;
  const source = `export function clamp${i}(x, lo, hi) {\n  if (x < lo) return lo;\n${bug}  return x;\n}\n`;
  const tests = `import assert from "node:assert/strict";
import { test } from "node:test";
import { clamp${i} } from "../${file}";

test("keeps values inside", () => assert.equal(clamp${i}(${(i % 5) + 1}, 0, 9), ${(i % 5) + 1}));
test("raises values below", () => assert.equal(clamp${i}(-1, 0, 9), 0));
test("lowers values just above", () => assert.equal(clamp${i}(10, 0, 9), 9));
`;
  const reproduction = `import assert from "node:assert/strict";
import { test } from "node:test";
import { clamp${i} } from "../${file}";

test("reproduction: clamp${i} caps a value one above the bound", () => assert.equal(clamp${i}(10, 0, 9), 9));
`;
  return {
    title: `clamp${i} lets one value above the bound through`,
    file,
    source,
    tests,
    reproduction,
    answers: {
      good: answer(file, bug, `  if (x > hi) return hi;\n`),
      regressing: answer(file, bug, `  if (x > hi) return hi;\n  if (x < hi) return lo;\n`),
      "no-fix": answer(file, bug, `  // upper bound\n${bug}`),
      larger: answer(
        file,
        bug,
        `  if (x > hi) {\n    const capped = hi;\n    return capped;\n  }\n  if (x < lo) return lo;\n`,
      ),
    },
  };
}

export function writeIssue(dir: string, issue: SelectionIssue): void {
  fs.rmSync(dir, { recursive: true, force: true });
  fs.mkdirSync(path.join(dir, "src"), { recursive: true });
  fs.mkdirSync(path.join(dir, "test"), { recursive: true });
  fs.writeFileSync(path.join(dir, issue.file), issue.source);
  fs.writeFileSync(path.join(dir, "test", "clamp.test.js"), issue.tests);
  fs.writeFileSync(path.join(dir, "package.json"), JSON.stringify({ name: "sel", type: "module" }));
}
