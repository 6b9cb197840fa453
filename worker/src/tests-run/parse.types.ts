import type { LiveTestCounts } from "@fixloop/contract";

export type Outcome = "pass" | "fail" | "error" | "skip";

const SEVERITY: Record<Outcome, number> = { skip: 0, pass: 1, fail: 2, error: 3 };

/**
 * Outcomes by test name. A name reported twice in one run (the same title in two files, a test
 * run twice) keeps its worst outcome, so a later pass never hides a failure.
 */
export class Outcomes extends Map<string, Outcome> {
  override set(name: string, outcome: Outcome): this {
    const was = this.get(name);
    return was !== undefined && SEVERITY[was] >= SEVERITY[outcome] ? this : super.set(name, outcome);
  }
}

/** What the parsers learned so far: per-test outcomes and, where the runner prints one, its summary. */
export interface Tally {
  results: Map<string, Outcome>;
  summary: LiveTestCounts | null;
}

/** One runner's line format; returns true when the line was its own. */
export interface LineParser {
  id: string;
  line(l: string, t: Tally): boolean;
}
