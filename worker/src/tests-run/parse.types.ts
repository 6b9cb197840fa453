import type { LiveTestCounts } from "@fixloop/contract";

export type Outcome = "pass" | "fail" | "error" | "skip";

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
