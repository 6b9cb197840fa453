import type { LiveTestCounts } from "@fixloop/contract";
import type { LineParser, Outcome, Tally } from "./parse.types";
import { jestJsonParser, jestTextParser } from "./parse.jest";
import { cargoParser, goParser } from "./parse.go-cargo";
import { nodeSpecParser, nodeTapParser } from "./parse.node-test";
import { pytestParser, unittestParser } from "./parse.python";

export type { LineParser, Outcome, Tally } from "./parse.types";

const PARSERS: (() => LineParser)[] = [
  nodeTapParser,
  nodeSpecParser,
  pytestParser,
  unittestParser,
  goParser,
  cargoParser,
  jestJsonParser,
  jestTextParser,
];

export interface ParsedRun {
  /** Runners whose format was recognised; empty = unknown runner (exit code only). */
  runners: string[];
  results: Record<string, Outcome>;
  counts: LiveTestCounts;
}

/** Streaming parser over a test run's output: feed chunks, read counts at any time. */
export class TestOutputParser {
  private readonly tally: Tally = { results: new Map(), summary: null };
  private readonly parsers = PARSERS.map((p) => p());
  private readonly matched = new Set<string>();
  private carry = "";

  feed(chunk: string): void {
    const lines = (this.carry + chunk).split(/\r?\n/);
    this.carry = lines.pop() ?? "";
    for (const l of lines) this.line(l);
  }

  private line(raw: string): void {
    // eslint-disable-next-line no-control-regex
    const l = raw.replace(/\x1b\[[0-9;]*m/g, "");
    if (l.length > 4000 && !l.startsWith("{")) return;
    for (const p of this.parsers) {
      if (p.line(l, this.tally)) {
        this.matched.add(p.id);
        return;
      }
    }
  }

  counts(): LiveTestCounts {
    const c = { passed: 0, failed: 0, errored: 0 };
    for (const o of this.tally.results.values()) {
      if (o === "pass") c.passed++;
      else if (o === "fail") c.failed++;
      else if (o === "error") c.errored++;
    }
    const s = this.tally.summary;
    // A summary (unittest without -v, vitest) may know more tests than were named.
    return s && s.passed + s.failed + s.errored > c.passed + c.failed + c.errored ? s : c;
  }

  finish(): ParsedRun {
    if (this.carry) this.line(this.carry);
    this.carry = "";
    return { runners: [...this.matched], results: Object.fromEntries(this.tally.results), counts: this.counts() };
  }
}
