import type { LineParser, Outcome, Tally } from "./parse.types";

const PYTEST: Record<string, Outcome> = {
  PASSED: "pass",
  XPASS: "pass",
  FAILED: "fail",
  XFAIL: "skip",
  ERROR: "error",
  SKIPPED: "skip",
};

/** pytest: `-rA` summary lines, `-v` lines, and the final `= 1 failed, 2 passed in 0.1s =` line. */
export function pytestParser(): LineParser {
  return {
    id: "pytest",
    line(l, t) {
      const a = /^(PASSED|FAILED|ERROR|SKIPPED|XFAIL|XPASS) (\S+::\S+)/.exec(l);
      const b = a ? null : /^(\S+::\S+) (PASSED|FAILED|ERROR|SKIPPED|XFAIL|XPASS)\b/.exec(l);
      if (a || b) {
        const [name, status] = a ? [a[2], a[1]] : [b?.[1], b?.[2]];
        t.results.set(name ?? "", PYTEST[status ?? ""] ?? "error");
        return true;
      }
      const s = /^=+ (.*\d+ (?:passed|failed|errors?|skipped).*) in [\d.]+s.*=+$/.exec(l);
      if (!s) return false;
      const n = (word: string) => Number(new RegExp(`(\\d+) ${word}`).exec(s[1] ?? "")?.[1] ?? 0);
      t.summary = { passed: n("passed") + n("xpassed"), failed: n("failed"), errored: n("errors?") };
      return true;
    },
  };
}

const UNITTEST: Record<string, Outcome> = {
  ok: "pass",
  FAIL: "fail",
  ERROR: "error",
  "unexpected success": "fail",
  "expected failure": "skip",
};
const outcomeOf = (s: string): Outcome | undefined => UNITTEST[s] ?? (s.startsWith("skipped") ? "skip" : undefined);

/** python -m unittest (-v lines, FAIL:/ERROR: headers, the `Ran N tests` / `FAILED (failures=1)` summary). */
export function unittestParser(): LineParser {
  let pending: string | null = null;
  let ran = 0;
  const idOf = (method: string, where: string) => (where.endsWith(`.${method}`) ? where : `${where}.${method}`);
  const set = (t: Tally, name: string, o: Outcome) => t.results.set(name, o);
  return {
    id: "unittest",
    line(l, t) {
      const v = /^(\w+) \(([\w.]+)\)(?: \.\.\. (.*))?$/.exec(l);
      if (v) {
        const name = idOf(v[1] ?? "", v[2] ?? "");
        const o = v[3] === undefined ? undefined : outcomeOf(v[3]);
        if (o) set(t, name, o);
        else pending = name;
        return true;
      }
      if (pending) {
        const o = outcomeOf(l.replace(/^.*\.\.\. /, "").trim());
        if (o) {
          set(t, pending, o);
          pending = null;
          return true;
        }
      }
      const h = /^(FAIL|ERROR): (\w+) \(([\w.]+)\)/.exec(l);
      if (h) {
        set(t, idOf(h[2] ?? "", h[3] ?? ""), h[1] === "FAIL" ? "fail" : "error");
        return true;
      }
      const r = /^Ran (\d+) tests? in/.exec(l);
      if (r) {
        ran = Number(r[1]);
        t.summary = { passed: ran, failed: 0, errored: 0 };
        return true;
      }
      const f = /^(FAILED|OK)(?: \((.*)\))?$/.exec(l);
      if (f && t.summary) {
        const n = (k: string) => Number(new RegExp(`${k}=(\\d+)`).exec(f[2] ?? "")?.[1] ?? 0);
        const failed = n("failures") + n("unexpected successes");
        const errored = n("errors");
        t.summary = {
          passed: Math.max(0, ran - failed - errored - n("skipped") - n("expected failures")),
          failed,
          errored,
        };
        return true;
      }
      return false;
    },
  };
}
