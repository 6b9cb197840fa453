import fs from "node:fs";
import path from "node:path";
import url from "node:url";
import ts from "typescript";
import { describe, expect, test } from "vitest";

const ROOT = path.resolve(path.dirname(url.fileURLToPath(import.meta.url)), "../../..");
/** The app's packages: the test kit and infra's benches seed rows as a fixture would, outside any transition. */
const PACKAGES = ["contract", "db", "runtime", "api", "worker"];

/** Every source module of the app: its tests and frozen migrations left out. */
function sourceFiles(): string[] {
  return PACKAGES.flatMap((p) => {
    const abs = path.join(ROOT, p, "src");
    if (!fs.existsSync(abs)) return [];
    return fs
      .readdirSync(abs, { recursive: true, encoding: "utf8" })
      .filter((f) => /\.tsx?$/.test(f) && !/\.(test|d)\.tsx?$/.test(f) && !f.includes("node_modules"))
      .filter((f) => !f.startsWith("migrations/") && !f.split(path.sep).includes("migrations"))
      .map((f) => path.join(abs, f));
  });
}

/** The query builder call a chain of method calls starts from (`db.updateTable("t").set(…).where(…)` → updateTable("t")). */
function chainRoot(e: ts.Expression): { method: string; table: string } | null {
  let cur: ts.Expression = e;
  while (ts.isCallExpression(cur) && ts.isPropertyAccessExpression(cur.expression)) {
    const method = cur.expression.name.text;
    const [arg] = cur.arguments;
    if ((method === "updateTable" || method === "insertInto") && arg && ts.isStringLiteral(arg))
      return { method, table: arg.text.split(/\s+as\s+/)[0] ?? arg.text };
    cur = cur.expression.expression;
  }
  return null;
}

/** Whether an object literal names `key` (a spread counts: what it carries cannot be read here). */
const names = (o: ts.Expression, key: string) =>
  ts.isObjectLiteralExpression(o) &&
  o.properties.some((p) => ts.isSpreadAssignment(p) || (p.name && ts.isIdentifier(p.name) && p.name.text === key));

/**
 * The files that write `table`'s `status`: an insert (the column's default is a status too), an
 * update whose `.set` names it (or is not an object literal), or a raw `update <table> set … status`.
 */
function statusWriters(files: string[], table: string): string[] {
  const writers = new Set<string>();
  for (const file of files) {
    const text = fs.readFileSync(file, "utf8");
    if (!text.includes(table)) continue;
    const raw = new RegExp(`update\\s+${table}\\b[^;\`]*\\bstatus\\b`, "i");
    if (raw.test(text)) writers.add(file);
    const visit = (n: ts.Node) => {
      if (ts.isCallExpression(n) && ts.isPropertyAccessExpression(n.expression)) {
        const method = n.expression.name.text;
        const root = chainRoot(n.expression.expression);
        const [arg] = n.arguments;
        if (root?.table === table) {
          if (root.method === "insertInto" && method === "values") writers.add(file);
          if (
            root.method === "updateTable" &&
            method === "set" &&
            (!arg || !ts.isObjectLiteralExpression(arg) || names(arg, "status"))
          )
            writers.add(file);
        }
      }
      ts.forEachChild(n, visit);
    };
    visit(ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true));
  }
  return [...writers].map((f) => path.relative(ROOT, f)).sort();
}

describe("each state table is written by one file", () => {
  const files = sourceFiles();

  test("a run's status (solve, refine, or a backtest's solve) is written by the run engine's transitions only", () => {
    expect(statusWriters(files, "solve_runs")).toEqual(["db/src/repositories/runs.repository.ts"]);
  });

  test("a backtest's status is written by the backtests repository only", () => {
    expect(statusWriters(files, "repository_backtests")).toEqual(["db/src/repositories/backtests.repository.ts"]);
  });

  test("the scan finds a writer wherever one is written, however its query is spelled", () => {
    const dir = fs.mkdtempSync(path.join(ROOT, "node_modules", ".state-writers-"));
    try {
      const write = (name: string, text: string) => {
        fs.writeFileSync(path.join(dir, name), text);
        return path.join(dir, name);
      };
      const probes = [
        write("a.ts", `await trx.updateTable("solve_runs").set({ status: "failed" }).where("id", "=", id).execute();`),
        write("b.ts", `await db.insertInto("solve_runs").values(row).execute();`),
        write("c.ts", "await sql`update solve_runs set finished_at = now(), status = 'failed'`.execute(db);"),
        write("d.ts", `await db.updateTable("solve_runs as r").set(changes).execute();`),
        write("e.ts", `await db.updateTable("solve_runs").set({ ...ended }).execute();`),
        // Not status writers: another column, another table, a read.
        write("f.ts", `await db.updateTable("solve_runs").set({ current_step: "context" }).execute();`),
        write("g.ts", `await db.updateTable("issues").set({ status: "open" }).execute();`),
        write("h.ts", `await db.selectFrom("solve_runs").select("status").execute();`),
      ];
      const found = statusWriters(probes, "solve_runs").map((f) => path.basename(f));
      expect(found).toEqual(["a.ts", "b.ts", "c.ts", "d.ts", "e.ts"]);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
