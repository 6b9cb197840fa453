import { type LineParser, MAX_RESULTS, nameKey } from "./parse.types";

/** go test -json events (and plain `--- PASS: TestX` lines from go test -v). */
export function goParser(): LineParser {
  /** Packages that reported a test's result (as many as results are kept), so a package's failure is not walked for. */
  const tested = new Set<string>();
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
        const pkg = nameKey(e.Package ?? "");
        if (name && (e.Action === "pass" || e.Action === "fail" || e.Action === "skip") && tested.size < MAX_RESULTS)
          tested.add(pkg);
        if (e.Action === "pass" && name) t.results.set(name, "pass");
        else if (e.Action === "fail") {
          if (name) t.results.set(name, "fail");
          else if (!tested.has(pkg)) t.results.set(`${e.Package ?? ""} (build)`, "error");
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
