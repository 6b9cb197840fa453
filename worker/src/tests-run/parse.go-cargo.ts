import type { LineParser } from "./parse.types";

/** go test -json events (and plain `--- PASS: TestX` lines from go test -v). */
export function goParser(): LineParser {
  return {
    id: "go",
    line(l, t) {
      if (l.startsWith('{"Time"') || l.startsWith('{"Action"')) {
        let e: { Action?: string; Package?: string; Test?: string };
        try {
          e = JSON.parse(l) as typeof e;
        } catch {
          return false;
        }
        const name = e.Test ? `${e.Package ?? ""}/${e.Test}` : null;
        if (e.Action === "pass" && name) t.results.set(name, "pass");
        else if (e.Action === "fail") {
          if (name) t.results.set(name, "fail");
          else if (![...t.results.keys()].some((k) => k.startsWith(`${e.Package ?? ""}/`)))
            t.results.set(`${e.Package ?? ""} (build)`, "error");
        } else if (e.Action === "skip" && name) t.results.set(name, "skip");
        return true;
      }
      const v = /^\s*--- (PASS|FAIL|SKIP): (\S+)/.exec(l);
      if (!v) return false;
      t.results.set(v[2] ?? "", v[1] === "PASS" ? "pass" : v[1] === "FAIL" ? "fail" : "skip");
      return true;
    },
  };
}

/** cargo test: `test path::name ... ok|FAILED|ignored`. */
export function cargoParser(): LineParser {
  return {
    id: "cargo",
    line(l, t) {
      const m = /^test (\S+) \.\.\. (ok|FAILED|ignored)/.exec(l);
      if (!m) return false;
      t.results.set(m[1] ?? "", m[2] === "ok" ? "pass" : m[2] === "FAILED" ? "fail" : "skip");
      return true;
    },
  };
}
