import { type LineParser, type Outcome, own, type Tally } from "./parse.types";

/**
 * Nested results: a test's children report before it, so a result line at level L after
 * results at level L+1 belongs to a parent (suite) and is not counted itself.
 */
class Nesting {
  private names: string[] = [];
  private childSeen: boolean[] = [];

  open(level: number, name: string): void {
    this.names.length = level;
    this.names[level] = own(name);
  }

  result(level: number, name: string, outcome: Outcome, t: Tally): void {
    const parent = this.childSeen[level + 1] ?? false;
    this.childSeen[level + 1] = false;
    this.childSeen[level] = true;
    if (parent) return;
    const full = [...this.names.slice(0, level), name].join(" > ");
    t.results.set(full, outcome);
  }
}

/** node --test, TAP reporter (the default when output is not a terminal on Node 20). */
export function nodeTapParser(): LineParser {
  const n = new Nesting();
  return {
    id: "node-tap",
    line(l, t) {
      const sub = /^(\s*)# Subtest: (.*)$/.exec(l);
      if (sub) {
        n.open(Math.floor((sub[1] ?? "").length / 4), sub[2] ?? "");
        return true;
      }
      const r = /^(\s*)(not ok|ok) \d+ - (.*?)(\s+# (SKIP|TODO)\b.*)?$/i.exec(l);
      if (r) {
        const outcome: Outcome = r[4] ? "skip" : r[2] === "ok" ? "pass" : "fail";
        n.result(Math.floor((r[1] ?? "").length / 4), (r[3] ?? "").replace(/\\#/g, "#"), outcome, t);
        return true;
      }
      const sum = /^# (pass|fail|cancelled) (\d+)$/.exec(l);
      if (sum) {
        const s = (t.summary ??= { passed: 0, failed: 0, errored: 0 });
        const v = Number(sum[2]);
        if (sum[1] === "pass") s.passed = v;
        else if (sum[1] === "fail") s.failed = v;
        else s.errored = v;
        return true;
      }
      return false;
    },
  };
}

/** node --test, spec reporter (terminals, and the default on newer Node). */
export function nodeSpecParser(): LineParser {
  const n = new Nesting();
  let summaryReached = false;
  return {
    id: "node-spec",
    line(l, t) {
      if (summaryReached) return false;
      if (/^✖ failing tests:/.test(l)) {
        summaryReached = true; // failures are listed again below; they are already counted
        return true;
      }
      const m = /^(\s*)(✔|✖|﹣|▶) (.*?)(?: \([\d.]+m?s\))?( # (SKIP|TODO).*)?$/.exec(l);
      if (!m) return false;
      const level = Math.floor((m[1] ?? "").length / 2);
      const name = m[3] ?? "";
      if (m[2] === "▶") {
        if (!/\([\d.]+m?s\)$/.test(l)) n.open(level, name);
        else n.result(level, name, "pass", t);
        return true;
      }
      n.result(level, name, m[4] || m[2] === "﹣" ? "skip" : m[2] === "✔" ? "pass" : "fail", t);
      return true;
    },
  };
}
