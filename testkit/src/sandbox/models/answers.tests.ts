import path from "node:path/posix";
import type { GeneratedSolution } from "@fixloop/contract";

type File = GeneratedSolution["files"][number];

/** A file as the prompt shows it. */
export interface ShownFile {
  path: string;
  text: string;
}

const JS_EXT = /\.(m|c)?[jt]sx?$/;
const TEST_DIRS = new Set(["test", "tests", "__tests__", "spec"]);

export function isTestPath(p: string): boolean {
  const base = path.basename(p);
  return (
    /\.(test|spec)\.(m|c)?[jt]sx?$/.test(base) ||
    /^test_.+\.py$/.test(base) ||
    /_test\.(go|py)$/.test(base) ||
    p.split("/").some((d) => TEST_DIRS.has(d))
  );
}

const language = (p: string) => (JS_EXT.test(p) ? "js" : path.extname(p).slice(1));
const stripExt = (p: string) => p.slice(0, p.length - path.extname(p).length);

/** Relative module specifiers of a JS file, with the local names each binds (a namespace's or default's too). */
function relativeImports(text: string): { spec: string; names: string[] }[] {
  const out: { spec: string; names: string[] }[] = [];
  const re = /^\s*import\s+(?:\*\s+as\s+([\w$]+)|\{([^}]*)\}|([\w$]+))\s+from\s+["'](\.{1,2}\/[^"']+)["']/gm;
  for (const m of text.matchAll(re)) {
    const names = m[1]
      ? [m[1]]
      : m[3]
        ? [m[3]]
        : (m[2] ?? "").split(",").map(
            (n) =>
              n
                .trim()
                .split(/\s+as\s+/)
                .at(-1) ?? "",
          );
    // Type-only names (`type Foo`) are no values a test can use.
    out.push({ spec: m[4] ?? "", names: names.filter((n) => /^[\w$]+$/.test(n)) });
  }
  return out;
}

/** Whether `spec`, written in `from`, names `target` (with or without its extension, `.js` for `.ts` too). */
function names(from: string, spec: string, target: string): boolean {
  return stripExt(path.join(path.dirname(from), spec)) === stripExt(target);
}

/** How `from` imports `target`, in the style the repository's tests use (an extension or none). */
function specifier(from: string, target: string, withExt: boolean): string {
  let rel = path.relative(path.dirname(from), target);
  if (!rel.startsWith(".")) rel = `./${rel}`;
  if (!withExt) return stripExt(rel);
  // TypeScript sources are imported by their emitted name, as ESM TypeScript does.
  return rel
    .replace(/\.tsx?$/, ".js")
    .replace(/\.mts$/, ".mjs")
    .replace(/\.cts$/, ".cjs");
}

/**
 * A new test's extension when no test is shown: the source's own for JavaScript; `.js` for
 * TypeScript, which test runners pick up whether or not they compile TypeScript (Node's runs only
 * JavaScript files), importing the source by its `.js` name.
 */
const jsExt = (file: string) =>
  path
    .extname(file)
    .replace(/^\.tsx?$/, ".js")
    .replace(/^\.mts$/, ".mjs")
    .replace(/^\.cts$/, ".cjs");

const exportedFunctions = (text: string) =>
  [...text.matchAll(/^export\s+(?:async\s+)?function\*?\s+([\w$]+)/gm)].map((m) => m[1] ?? "").filter(Boolean);

/** The body of one JS test: the subject's export is a function the fix touched (or the module loads). */
function jsTest(style: string, title: string, subject: { name: string; fn: boolean }): string {
  const call = /^\s*it\(/m.test(style) && !/^\s*test\(/m.test(style) ? "it" : "test";
  const check =
    /\bexpect\b/.test(style) && !/\bassert\b/.test(style)
      ? subject.fn
        ? `expect(typeof ${subject.name}).toBe("function");`
        : `expect(${subject.name}).toBeDefined();`
      : subject.fn
        ? `assert.equal(typeof ${subject.name}, "function");`
        : `assert.ok(${subject.name});`;
  return `${call}(${JSON.stringify(`regression: ${title}`)}, () => {\n  ${check}\n});\n`;
}

/** Where the repository keeps tests when none is shown: a top-level test directory from the map, else beside the file. */
function testDirFromMap(repoMap: string, file: string): string {
  const dirs = [...repoMap.matchAll(/^([^\s/]+)\/ \(\d+ files?\)$/gm)].map((m) => m[1] ?? "");
  return dirs.find((d) => TEST_DIRS.has(d)) ?? path.dirname(file);
}

function jsTestFor(changed: ShownFile, shown: ShownFile[], repoMap: string, title: string): File {
  const tests = shown.filter((f) => isTestPath(f.path) && JS_EXT.test(f.path));
  const fns = exportedFunctions(changed.text);
  // A test file that already imports the changed module gets one more test, in its own style.
  for (const t of tests) {
    const imp = relativeImports(t.text).find((i) => names(t.path, i.spec, changed.path));
    const name = imp?.names.find((n) => fns.includes(n)) ?? imp?.names[0];
    if (!imp || !name) continue;
    const text = t.text.endsWith("\n") ? t.text : `${t.text}\n`;
    const block = jsTest(t.text, title, { name, fn: fns.includes(name) });
    return { filename: t.path, action: "modify", edits: [], content: `${text}\n${block}` };
  }
  // Otherwise a new test beside the repository's tests, named and importing as they do.
  const sibling = tests[0];
  const suffix =
    (sibling && /\.(test|spec)\.(m|c)?[jt]sx?$/.exec(path.basename(sibling.path))?.[0]) ??
    `.test${jsExt(changed.path)}`;
  const dir = sibling ? path.dirname(sibling.path) : testDirFromMap(repoMap, changed.path);
  const base = path.basename(changed.path, path.extname(changed.path));
  let file = dir === "." ? `${base}${suffix}` : `${dir}/${base}${suffix}`;
  if (shown.some((f) => f.path === file)) file = file.replace(suffix, `.regression${suffix}`);
  const siblingImports = sibling ? relativeImports(sibling.text) : [];
  const withExt = siblingImports.length ? JS_EXT.test(siblingImports[0]?.spec ?? "") : true;
  const header = sibling
    ? sibling.text.split("\n").filter((l) => /^\s*import\s.+\sfrom\s+["'][^.][^"']*["'];?\s*$/.test(l))
    : ['import assert from "node:assert/strict";', 'import { test } from "node:test";'];
  const fn = fns[0];
  const subject = fn ? `{ ${fn} }` : "* as subject";
  const lines = [...header, `import ${subject} from "${specifier(file, changed.path, withExt)}";`];
  const content = `${lines.join("\n")}\n\n${jsTest(sibling?.text ?? "test(assert)", title, { name: fn ?? "subject", fn: !!fn })}`;
  return { filename: file, action: "create", edits: [], content };
}

function pythonTestFor(changed: ShownFile, shown: ShownFile[], repoMap: string, title: string): File {
  const sibling = shown.find((f) => isTestPath(f.path) && f.path.endsWith(".py"));
  const dir = sibling ? path.dirname(sibling.path) : testDirFromMap(repoMap, changed.path);
  const base = path.basename(changed.path, ".py");
  let file = dir === "." ? `test_${base}.py` : `${dir}/test_${base}.py`;
  if (shown.some((f) => f.path === file)) file = file.replace(/\.py$/, "_regression.py");
  // Imported from the repository root, as `python -m unittest` and pytest both allow.
  const module = stripExt(changed.path).replace(/\//g, ".");
  const doc = title.replace(/["\\]/g, "'");
  const content = `import unittest\n\nimport ${module} as subject\n\n\nclass RegressionTest(unittest.TestCase):\n    def test_regression(self):\n        """${doc}"""\n        self.assertIsNotNone(subject)\n\n\nif __name__ == "__main__":\n    unittest.main()\n`;
  return { filename: file, action: "create", edits: [], content };
}

function goTestFor(changed: ShownFile): File {
  const pkg = /^package\s+(\w+)/m.exec(changed.text)?.[1] ?? "main";
  const base = path.basename(changed.path, ".go");
  // A name of its own: the usual `<file>_test.go` may exist without being shown.
  const file = `${stripExt(changed.path)}_regression_test.go`;
  const name = base
    .replace(/(^|[^A-Za-z0-9])([A-Za-z0-9])/g, (_, _s: string, c: string) => c.toUpperCase())
    .replace(/[^A-Za-z0-9]/g, "");
  const content = `package ${pkg}\n\nimport "testing"\n\nfunc TestRegression${name}(t *testing.T) {\n\tt.Log(${JSON.stringify(`regression test for ${changed.path}`)})\n}\n`;
  return { filename: file, action: "create", edits: [], content };
}

/**
 * A test for the changed file in the repository's own layout, derived from what the prompt shows:
 * one more test in a shown test file that imports it, else a new file beside the shown tests (their
 * naming, framework imports and import style), else in the map's test directory, else beside the file.
 */
export function testFor(changed: ShownFile, shown: ShownFile[], repoMap: string, title: string): File | undefined {
  const lang = language(changed.path);
  if (lang === "js") return jsTestFor(changed, shown, repoMap, title);
  if (lang === "py") return pythonTestFor(changed, shown, repoMap, title);
  if (lang === "go") return goTestFor(changed);
  return undefined;
}
