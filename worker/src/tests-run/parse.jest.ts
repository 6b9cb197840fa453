import type { LineParser, Outcome } from "./parse.types";

interface JestJson {
  numTotalTests?: number;
  testResults?: { name?: string; assertionResults?: { fullName?: string; title?: string; status?: string }[] }[];
}

const JEST_STATUS: Record<string, Outcome> = {
  passed: "pass",
  failed: "fail",
  pending: "skip",
  skipped: "skip",
  todo: "skip",
  disabled: "skip",
};

/** jest --json / vitest --reporter=json: one JSON document with every assertion. */
export function jestJsonParser(): LineParser {
  return {
    id: "jest-json",
    line(l, t) {
      if (!l.startsWith("{") || !l.includes('"numTotalTests"')) return false;
      let doc: JestJson;
      try {
        doc = JSON.parse(l) as JestJson;
      } catch {
        return false;
      }
      for (const file of doc.testResults ?? []) {
        for (const a of file.assertionResults ?? []) {
          t.results.set(`${file.name ?? ""} > ${a.fullName ?? a.title ?? ""}`, JEST_STATUS[a.status ?? ""] ?? "error");
        }
      }
      return true;
    },
  };
}

/** jest/vitest default reporters: `✓ name`, `✕/× name` lines and the `Tests:` summary. */
export function jestTextParser(): LineParser {
  return {
    id: "jest",
    line(l, t) {
      const s = /^\s*Tests:?\s+(.*\d+ (?:passed|failed).*)$/.exec(l);
      if (s) {
        const n = (w: string) => Number(new RegExp(`(\\d+) ${w}`).exec(s[1] ?? "")?.[1] ?? 0);
        t.summary = { passed: n("passed"), failed: n("failed"), errored: 0 };
        return true;
      }
      const m = /^\s+(✓|✕|×|○) (.+?)(?: \(\d+ ?m?s\)| \d+ms)?$/.exec(l);
      if (!m || /\(\d+ tests?\)/.test(m[2] ?? "")) return false;
      t.results.set(m[2] ?? "", m[1] === "✓" ? "pass" : m[1] === "○" ? "skip" : "fail");
      return true;
    },
  };
}
