import { createHash } from "node:crypto";
import type { LiveTestCounts } from "@fixloop/contract";

export type Outcome = "pass" | "fail" | "error" | "skip";

const SEVERITY: Record<Outcome, number> = { skip: 0, pass: 1, fail: 2, error: 3 };

/**
 * Most distinct test results one run keeps. The parser runs outside the sandbox on output the
 * repository controls: a test printing `ok N - <unique name>` in a loop grew it without end (1.6 GB
 * of heap in 7 s). Past it a new name is counted, not kept. Large real suites fit (Django's runs
 * about 17,000 tests): a suite past the cap is judged on the names kept, which errs towards
 * failing (a kept name shifted past the cap reads as gone). At most 50,000 × 500 characters
 * (about 50 MB) per run.
 */
export const MAX_RESULTS = 50_000;
/** Longest test name kept; a longer one keeps its start and a hash of the whole, so two long names stay apart. */
export const MAX_NAME = 500;
const HASH_TAG = 12;

/** A test name as it is kept: itself up to MAX_NAME characters, else its start and a hash of the whole. */
export function nameKey(name: string): string {
  if (name.length <= MAX_NAME) return name;
  let cut = MAX_NAME - HASH_TAG - 3;
  // Never split a surrogate pair (a lone surrogate is not valid text in JSON stores).
  if (/[\ud800-\udbff]/.test(name.charAt(cut - 1))) cut--;
  const hash = createHash("sha256").update(name).digest("hex").slice(0, HASH_TAG);
  return `${name.slice(0, cut)}… #${hash}`;
}

/** Results a run reported past MAX_RESULTS: not named, but counted; `failing` failed or errored. */
export interface Dropped {
  results: number;
  failing: number;
}

const bad = (o: Outcome) => o === "fail" || o === "error";

/**
 * A copy of `s` that holds nothing else alive. A name cut from a line is, in V8, a slice of the
 * whole output chunk it came in: kept as is, 20,000 short names held 1.3 GB of 64 KiB chunks.
 * (A JSON round trip copies every code unit exactly, lone surrogates included.)
 */
export const own = (s: string): string => JSON.parse(JSON.stringify(s)) as string;

/**
 * Outcomes by test name, at most MAX_RESULTS names of at most MAX_NAME characters, counted as they
 * come (reading the counts never walks the names). A name reported twice in one run (the same title
 * in two files, a test run twice) keeps its worst outcome, so a later pass never hides a failure.
 */
export class Outcomes {
  private readonly byName = new Map<string, Outcome>();
  private readonly tally = { passed: 0, failed: 0, errored: 0 };
  private readonly dropped: Dropped = { results: 0, failing: 0 };

  set(name: string, outcome: Outcome): void {
    const key = nameKey(name);
    const was = this.byName.get(key);
    if (was === undefined && this.byName.size >= MAX_RESULTS) {
      this.dropped.results++;
      if (bad(outcome)) this.dropped.failing++;
      return;
    }
    if (was !== undefined && SEVERITY[was] >= SEVERITY[outcome]) return;
    if (was !== undefined) this.count(was, -1);
    this.count(outcome, 1);
    this.byName.set(was === undefined ? own(key) : key, outcome);
  }

  private count(o: Outcome, by: number): void {
    if (o === "pass") this.tally.passed += by;
    else if (o === "fail") this.tally.failed += by;
    else if (o === "error") this.tally.errored += by;
  }

  /** How many names are kept (never more than MAX_RESULTS). */
  get size(): number {
    return this.byName.size;
  }

  /** Passed, failed and errored among the kept names. */
  counts(): LiveTestCounts {
    return { ...this.tally };
  }

  /** What was reported past MAX_RESULTS; null when nothing was. */
  truncated(): Dropped | null {
    return this.dropped.results ? { ...this.dropped } : null;
  }

  toRecord(): Record<string, Outcome> {
    return Object.fromEntries(this.byName);
  }
}

/** What the parsers learned so far: per-test outcomes and, where the runner prints one, its summary. */
export interface Tally {
  results: Outcomes;
  summary: LiveTestCounts | null;
}

/** One runner's line format; returns true when the line was its own. */
export interface LineParser {
  id: string;
  line(l: string, t: Tally): boolean;
}
