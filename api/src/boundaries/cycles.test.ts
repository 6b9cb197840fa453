import fs from "node:fs";
import path from "node:path";
import url from "node:url";
import ts from "typescript";
import { expect, test } from "vitest";

const ROOT = path.resolve(path.dirname(url.fileURLToPath(import.meta.url)), "../../..");
const PACKAGES = ["contract", "db", "runtime", "api", "worker", "web", "testkit", "infra"];

/** Every TypeScript module of ours (src and test folders) with the modules of ours it imports, `import type` and `export … from` included. */
function importGraph(): Map<string, string[]> {
  const files = PACKAGES.flatMap((p) =>
    ["src", "test"].flatMap((dir) => {
      const abs = path.join(ROOT, p, dir);
      if (!fs.existsSync(abs)) return [];
      return fs
        .readdirSync(abs, { recursive: true, encoding: "utf8" })
        .filter((f) => /\.tsx?$/.test(f) && !f.endsWith(".d.ts") && !f.includes("node_modules"))
        .map((f) => path.join(abs, f));
    }),
  );
  const known = new Set(files);
  const resolve = (from: string, spec: string) => {
    const base = path.resolve(path.dirname(from), spec);
    return [base, `${base}.ts`, `${base}.tsx`, path.join(base, "index.ts"), path.join(base, "index.tsx")].find((c) =>
      known.has(c),
    );
  };
  return new Map(
    files.map((f) => {
      const { importedFiles } = ts.preProcessFile(fs.readFileSync(f, "utf8"), true, true);
      const deps = importedFiles.filter((i) => i.fileName.startsWith(".")).map((i) => resolve(f, i.fileName));
      return [f, [...new Set(deps.filter((d): d is string => !!d))]];
    }),
  );
}

/** Groups of modules that reach each other (Tarjan's strongly connected components of more than one module, or a self-import). */
function cycles(graph: Map<string, string[]>): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const found: string[][] = [];
  const visit = (v: string) => {
    index.set(v, next);
    low.set(v, next++);
    stack.push(v);
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (stack.includes(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) !== index.get(v)) return;
    const group: string[] = [];
    let w: string;
    do {
      w = stack.pop()!;
      group.push(path.relative(ROOT, w));
    } while (w !== v);
    if (group.length > 1 || graph.get(v)?.includes(v)) found.push(group.sort());
  };
  for (const v of graph.keys()) if (!index.has(v)) visit(v);
  return found;
}

// import-x/no-cycle (eslint) skips type-only imports; a type cycle still ties two modules together, so this counts them too.
test("no module imports itself back, type imports included", () => {
  const graph = importGraph();
  expect(graph.size).toBeGreaterThan(500);
  expect(cycles(graph)).toEqual([]);
});
