import { open } from "node:fs/promises";
import path from "node:path";
import fs from "node:fs";
import type { TestPlan } from "./detect";

/**
 * How a detected runner runs some test files instead of the whole suite: `command(files)` names
 * them with the runner's own syntax (pytest paths, `node --test` files, jest/vitest paths,
 * `go test` packages, `cargo test --test` targets). Paths come from the repository (hostile):
 * each is quoted for the shell and made relative (`./`), so none reads as an option.
 */
export interface Selector {
  runner: "pytest" | "unittest" | "node-test" | "jest" | "vitest" | "go" | "cargo";
  /** Whether the runner can run this file on its own. */
  accepts: (file: string) => boolean;
  command: (files: string[]) => string;
}

/** A path as one shell word: single-quoted, `./` first so that no name starts with `-`. */
export function shellPath(p: string): string {
  const rel = p.startsWith("./") ? p : `./${p}`;
  return `'${rel.replace(/'/g, `'\\''`)}'`;
}

const safePath = (p: string) => !!p && !p.includes("\0") && !p.split("/").includes("..") && !path.isAbsolute(p);

const PY_TEST = /(^|\/)(test_[^/]*|[^/]*_test)\.py$/;
const JS_TEST = /\.(test|spec)\.[cm]?[jt]sx?$|(^|\/)(test|tests|__tests__)\/[^/]+\.[cm]?[jt]sx?$/;

async function packageScript(dir: string): Promise<string | null> {
  const flags = fs.constants.O_RDONLY | fs.constants.O_NOFOLLOW | fs.constants.O_NONBLOCK;
  const h = await open(path.join(dir, "package.json"), flags).catch(() => null);
  if (!h) return null;
  try {
    const s = await h.stat();
    if (!s.isFile() || s.size > 1_000_000) return null;
    const pkg = JSON.parse(await h.readFile("utf8")) as { scripts?: Record<string, unknown> };
    return typeof pkg.scripts?.test === "string" ? pkg.scripts.test : null;
  } catch {
    return null;
  } finally {
    await h.close();
  }
}

/** `node [flags] --test [paths]` with plain flags (no shell syntax): the flags, to run other files the same way. */
const NODE_TEST = /^node((?:\s+--?[\w-]+(?:[= ](?:\.\/)?[\w./@-]+)?)*?)\s+--test\b([^;&|<>`$()]*)$/;
const PLAIN_RUNNER = /^(jest|vitest(\s+run)?)(\s+--?[\w-]+(=[\w./-]+)?)*$/;

/**
 * The selector of the runner `plan` uses (detected or configured: the reproduction test runs with
 * it whatever the user's command is), or null when the tests cannot be narrowed safely (tox, make,
 * maven, gradle, a package.json script that does more than run one runner).
 */
export async function selectorFor(dir: string, plan: Pick<TestPlan, "language" | "command">): Promise<Selector | null> {
  if (plan.language === "python") {
    // The runner the command names; a command naming neither (tox, make) runs pytest where the tree configures it.
    const pytest = /\bpytest\b/.test(plan.command)
      ? true
      : /\bunittest\b/.test(plan.command)
        ? false
        : await hasAny(dir, ["pytest.ini", "conftest.py"]);
    return pytest
      ? {
          runner: "pytest",
          accepts: (f) => PY_TEST.test(f),
          command: (files) => `python3 -m pytest -rA ${files.map(shellPath).join(" ")}`,
        }
      : {
          runner: "unittest",
          accepts: (f) => /(^|\/)test[^/]*\.py$/.test(f),
          command: (files) => `python3 -m unittest -v ${files.map(shellPath).join(" ")}`,
        };
  }
  if (plan.language === "go")
    return {
      runner: "go",
      accepts: (f) => f.endsWith("_test.go"),
      command: (files) =>
        `go test -json ${[...new Set(files.map((f) => path.posix.dirname(f)))].map(shellPath).join(" ")}`,
    };
  if (plan.language === "rust")
    return {
      runner: "cargo",
      accepts: (f) => /^tests\/[\w-]+\.rs$/.test(f),
      command: (files) => `cargo test ${files.map((f) => `--test ${path.posix.basename(f, ".rs")}`).join(" ")}`,
    };
  if (plan.language !== "node") return null;
  const script = (await packageScript(dir))?.trim();
  if (!script) return null;
  const node = NODE_TEST.exec(script);
  if (node)
    return {
      runner: "node-test",
      accepts: (f) => /\.[cm]?[jt]sx?$/.test(f),
      command: (files) => `node${node[1] ?? ""} --test ${files.map(shellPath).join(" ")}`,
    };
  const plain = PLAIN_RUNNER.exec(script);
  if (plain)
    return {
      runner: plain[1]?.startsWith("vitest") ? "vitest" : "jest",
      accepts: (f) => /\.[cm]?[jt]sx?$/.test(f),
      command: (files) => `npx --no-install ${script} ${files.map(shellPath).join(" ")}`,
    };
  return null;
}

async function hasAny(dir: string, names: string[]): Promise<boolean> {
  for (const n of names) if (fs.existsSync(path.join(dir, n))) return true;
  return false;
}

/** Test files run at most, so that the related tests of a large repository stay within the time. */
export const MAX_RELATED_FILES = 12;
/**
 * The related files' budget in bytes of test source, a stand-in for their running time (sympy's
 * 94 KB solver tests run for minutes): a file that would pass it is left out, unless
 * it is the first; smaller ones after it still join.
 */
export const MAX_RELATED_BYTES = 64 * 1024;

export interface RelatedFile {
  path: string;
  why: string;
}

export interface RelatedInput {
  /** Step 3's chosen files, best first, with the test files near each (imports or names them). */
  chosen: Array<{ path: string; tests: string[] }>;
  /** The issue's title and body: test files it names are run too. */
  issueText: string;
  /** Every path of the tree (to find test files the issue names). */
  allPaths: readonly string[];
  /** A file's size in bytes, when known (the budget counts only known sizes). */
  sizeOf?: (path: string) => number | undefined;
}

const isTestPath = (p: string) =>
  PY_TEST.test(p) || JS_TEST.test(p) || /_test\.go$/.test(p) || /^tests\/[\w-]+\.rs$/.test(p);

/**
 * The test files that concern the issue, best first, with why: those the issue names, then the
 * tests near step 3's files, one per file in rank order, then the next of each, up to `max`.
 */
export function relatedTests(input: RelatedInput, selector: Selector, max = MAX_RELATED_FILES): RelatedFile[] {
  const out = new Map<string, string>();
  let bytes = 0;
  const add = (p: string, why: string) => {
    if (out.size >= max || out.has(p) || !safePath(p) || !selector.accepts(p)) return;
    const size = input.sizeOf?.(p) ?? 0;
    if (out.size && bytes + size > MAX_RELATED_BYTES) return;
    bytes += size;
    out.set(p, why);
  };
  const text = input.issueText;
  for (const p of input.allPaths)
    if (isTestPath(p) && (text.includes(p) || new RegExp(`\\b${escape(path.posix.basename(p))}\\b`).test(text)))
      add(p, "named in the issue");
  const depth = Math.max(0, ...input.chosen.map((c) => c.tests.length));
  for (let k = 0; k < depth; k++)
    for (const c of input.chosen) {
      const t = c.tests[k];
      if (t) add(t, `tests ${c.path}`);
    }
  return [...out.entries()].map(([p, why]) => ({ path: p, why }));
}

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** Test files a patch writes (new tests or changed ones): they join the related tests. */
export function patchTestFiles(files: Array<{ filename: string; action: string }>, selector: Selector): string[] {
  return files
    .filter((f) => f.action !== "delete" && isTestPath(f.filename) && selector.accepts(f.filename))
    .map((f) => f.filename);
}
