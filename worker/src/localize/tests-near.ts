import type { ImportGraph } from "./graph";
import { basename, dirname } from "./paths";
import { isTestPath, type Doc } from "./rank";

const stemOf = (p: string): string =>
  basename(p)
    .replace(/\.[^.]+$/, "")
    .replace(/^test_|_test$|_spec$|\.test$|\.spec$|Tests?$/g, "")
    .toLowerCase();

const sharedDirs = (a: string, b: string): number => {
  const x = dirname(a).split("/");
  const y = dirname(b).split("/");
  let k = 0;
  while (k < x.length && k < y.length && x[k] === y[k]) k++;
  return k;
};

/**
 * Test files likely to exercise `paths`: tests importing them, tests named after them
 * (`test_foo.py`, `foo.test.ts`, `foo_test.go`, `FooTest.java`), then nearby tests.
 */
export function testFilesNear(docs: readonly Doc[], graph: ImportGraph, paths: readonly string[]): string[] {
  const scores = new Map<string, number>();
  const tests = docs.filter((d) => d.test && d.code);
  for (const src of paths) {
    const stem = stemOf(src);
    for (const t of tests) {
      let s = 0;
      if (graph.importsOf(t.path).has(src)) s += 3;
      const tstem = stemOf(t.path);
      if (tstem === stem) s += 2;
      else if (stem.length > 2 && tstem.includes(stem)) s += 1;
      if (s === 0) continue;
      s += sharedDirs(src, t.path) * 0.1;
      scores.set(t.path, Math.max(scores.get(t.path) ?? 0, s));
    }
  }
  return [...scores.entries()]
    .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
    .slice(0, 20)
    .map(([p]) => p);
}

/**
 * Test files named after `src` (`test_foo.py`, `foo.test.ts`, `foo_test.go`, `FooTest.java`),
 * those sharing most of its directories first: the tests of a file the ranking did not read.
 */
export function testFilesNamedAfter(src: string, allPaths: readonly string[], max = 3): string[] {
  const stem = stemOf(src);
  if (!stem || isTestPath(src)) return [];
  return allPaths
    .filter((p) => p !== src && isTestPath(p) && stemOf(p) === stem)
    .sort((a, b) => sharedDirs(src, b) - sharedDirs(src, a) || (a < b ? -1 : 1))
    .slice(0, max);
}
