import type { LiveTestCounts } from "@fixloop/contract";
import { type Dropped, type LineParser, type Outcome, Outcomes, type Tally } from "./parse.types";
import type { OutputStream } from "./sandbox";
import { jestJsonParser, jestTextParser } from "./parse.jest";
import { cargoParser, goParser } from "./parse.go-cargo";
import { nodeSpecParser, nodeTapParser } from "./parse.node-test";
import { pytestParser, unittestParser } from "./parse.python";

export type { Dropped, LineParser, Outcome, Tally } from "./parse.types";

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
  /** At most MAX_RESULTS names (see parse.types). */
  results: Record<string, Outcome>;
  counts: LiveTestCounts;
  /** Present when the output reported more results than are kept: `results` is not the whole run. */
  truncated?: Dropped;
}

/** Longest line read as a runner's line; past it only a JSON report line (`{…`) is kept whole. */
const MAX_LINE = 4000;
/** Longest JSON report line kept (jest's --json report is one line). */
const MAX_JSON_LINE = 32 * 1024 * 1024;

/** One output stream's unfinished line, cut short past what a line may be. */
class Carry {
  private text = "";
  private skipping = false;

  /** The complete lines `chunk` finishes; each is at most MAX_LINE (or MAX_JSON_LINE for JSON). */
  take(chunk: string): string[] {
    const out: string[] = [];
    let from = 0;
    for (let nl = chunk.indexOf("\n"); nl >= 0; nl = chunk.indexOf("\n", from)) {
      if (!this.skipping) out.push((this.text + chunk.slice(from, nl)).replace(/\r$/, ""));
      this.text = "";
      this.skipping = false;
      from = nl + 1;
    }
    if (!this.skipping) {
      this.text += chunk.slice(from);
      const cap = this.text.startsWith("{") ? MAX_JSON_LINE : MAX_LINE;
      // A line longer than any runner prints is nobody's result: dropped up to its end, not buffered.
      if (this.text.length > cap) [this.text, this.skipping] = ["", true];
    }
    return out;
  }

  /** The last line when the output ended without a newline. */
  rest(): string {
    const t = this.skipping ? "" : this.text;
    [this.text, this.skipping] = ["", false];
    return t;
  }
}

/**
 * Streaming parser over a test run's output: feed chunks, read counts at any time. stdout and
 * stderr are cut into lines apart (a line on one is not finished by the other's output).
 */
export class TestOutputParser {
  private readonly tally: Tally = { results: new Outcomes(), summary: null };
  private readonly parsers = PARSERS.map((p) => p());
  private readonly matched = new Set<string>();
  private readonly carries = { stdout: new Carry(), stderr: new Carry() };

  feed(chunk: string, stream: OutputStream = "stdout"): void {
    for (const l of this.carries[stream].take(chunk)) this.line(l);
  }

  private line(raw: string): void {
    // eslint-disable-next-line no-control-regex
    const l = raw.replace(/\x1b\[[0-9;]*m/g, "");
    if (l.length > MAX_LINE && !l.startsWith("{")) return;
    for (const p of this.parsers) {
      if (p.line(l, this.tally)) {
        this.matched.add(p.id);
        return;
      }
    }
  }

  /** Read on every progress event: O(1), the results count themselves as they are set. */
  counts(): LiveTestCounts {
    const c = this.tally.results.counts();
    const s = this.tally.summary;
    // A summary (unittest without -v, vitest) may know more tests than were named.
    return s && s.passed + s.failed + s.errored > c.passed + c.failed + c.errored ? s : c;
  }

  finish(): ParsedRun {
    for (const c of Object.values(this.carries)) {
      const rest = c.rest();
      if (rest) this.line(rest);
    }
    const truncated = this.tally.results.truncated();
    return {
      runners: [...this.matched],
      results: this.tally.results.toRecord(),
      counts: this.counts(),
      ...(truncated ? { truncated } : {}),
    };
  }
}
