/**
 * Fixture set of real non-Python issues (infra/bench-data/localize-nonpy.json): ids, commits, issue
 * text and gold paths only; the code comes from a bare mirror of each repository at eval time.
 */
import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdir, mkdtemp, readFile, rename, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { promisify } from "node:util";
import { ROOT } from "../../paths";

const run = promisify(execFile);

export const NONPY_DATA = join(ROOT, "infra/bench-data/localize-nonpy.json");
export const LANGUAGES = ["javascript", "typescript", "go", "rust"] as const;
export type Language = (typeof LANGUAGES)[number];

export interface Fixture {
  instance_id: string;
  repo: string;
  base_commit: string;
  fix_commit: string;
  problem_statement: string;
  text_source: "issue" | "commit";
  /** Where the issue text comes from, when `text_source` is "issue". */
  issue_url?: string;
  language: Language;
  gold: string[];
}

const SOURCE = /\.(?:[cm]?js|jsx|tsx?|go|rs)$/;
const NOT_GOLD =
  /(?:^|\/)(?:tests?|__tests__|spec|benches|examples?|fixtures?|testdata|docs?|scripts|\.github)\/|_test\.go$|\.(?:test|spec)\.[cm]?[jt]sx?$|\.d\.ts$|\.test-d\.ts$/;

/** A changed file counts as gold when it is program source outside tests, docs, examples and type declarations. */
export function isGoldSource(path: string): boolean {
  return SOURCE.test(path) && !NOT_GOLD.test(path);
}

const ISSUE_REF = /\b(?:fix(?:e[sd])?|close[sd]?|resolve[sd]?)\b:?\s*(?:issue\s*)?#(\d+)/i;

/** The issue number a commit message says it fixes, if any. */
export function fixedIssue(message: string): number | undefined {
  const m = ISSUE_REF.exec(message);
  return m?.[1] ? Number(m[1]) : undefined;
}

/**
 * Issue text from a commit message when the issue itself is not at hand: the subject without its
 * `scope:` prefix, the body without issue references, trailers, file paths or diff lines.
 * Empty when nothing but references is left.
 */
export function commitIssueText(subject: string, body: string): string {
  const title = subject
    .replace(/^[\w/-]+(?:\([^)]*\))?!?:\s*/, "")
    .replace(/\s*\(#\d+\)\s*$/, "")
    .replace(/\b(?:fix(?:e[sd])?|close[sd]?|resolve[sd]?)\b:?\s*(?:issue\s*)?#\d+[,.]?\s*/gi, "")
    .replace(/#\d+/g, "")
    .trim();
  const lines = body
    .split("\n")
    .filter((l) => !/^\s*[\w-]+-by:|^\s*(?:diff --git|index [0-9a-f]+|@@|\+\+\+|---\s)/i.test(l))
    .map((l) =>
      l
        .replace(/\b(?:fix(?:e[sd])?|close[sd]?|resolve[sd]?|ref(?:s)?|see)\b:?\s*(?:issue\s*)?#\d+[,.]?/gi, "")
        .replace(/https?:\/\/\S+/g, "")
        .replace(/#\d+/g, "")
        .replace(/`?\b[\w.-]+(?:\/[\w.-]+)+\.\w+\b`?/g, "")
        .replace(/`?\b[\w.-]+\.(?:[cm]?js|jsx|tsx?|go|rs)\b`?/g, "")
        .trimEnd(),
    )
    .filter((l) => !/^\s*[.,:;()-]*\s*$/.test(l) || l === "");
  const text = lines
    .join("\n")
    .replace(/\n{3,}/g, "\n\n")
    .trim();
  if (!title) return text ? `${text}\n` : "";
  return text ? `${title}\n\n${text}\n` : `${title}\n`;
}

/** Whether `url` is the address of an issue of `repo` on GitHub. */
export function isIssueUrl(url: unknown, repo: string): boolean {
  return typeof url === "string" && url.startsWith(`https://github.com/${repo}/issues/`) && /\/issues\/\d+$/.test(url);
}

function check(f: unknown, i: number): Fixture {
  const bad = (what: string) => new Error(`fixture ${i}: ${what}`);
  if (!f || typeof f !== "object") throw bad("not an object");
  const o = f as Record<string, unknown>;
  for (const k of ["instance_id", "repo", "base_commit", "fix_commit", "problem_statement"])
    if (typeof o[k] !== "string" || !o[k]) throw bad(`${k} must be a non-empty string`);
  if (!/^[\w.-]+\/[\w.-]+$/.test(o.repo as string)) throw bad("repo must be owner/name");
  if (!/^[0-9a-f]{40}$/.test(o.base_commit as string)) throw bad("base_commit must be a full commit id");
  if (o.text_source !== "issue" && o.text_source !== "commit") throw bad('text_source must be "issue" or "commit"');
  if (o.text_source === "issue" && !isIssueUrl(o.issue_url, o.repo as string))
    throw bad("an issue's text needs its issue_url (https://github.com/<repo>/issues/<n>)");
  if (!LANGUAGES.includes(o.language as Language)) throw bad(`language must be one of ${LANGUAGES.join(", ")}`);
  const gold = o.gold;
  if (!Array.isArray(gold) || !gold.length || !gold.every((g) => typeof g === "string" && isGoldSource(g)))
    throw bad("gold must list the fix's source files");
  return o as unknown as Fixture;
}

export async function loadFixtures(file = NONPY_DATA): Promise<Fixture[]> {
  const data = JSON.parse(await readFile(file, "utf8")) as unknown;
  if (!Array.isArray(data)) throw new Error(`${file}: expected an array of fixtures`);
  return data.map(check);
}

/** The bare git directory of a repository's mirror (`<owner>+<name>/repo`), or undefined when absent. */
export function mirrorGitDir(mirrorRoot: string, repo: string): string | undefined {
  const dir = join(mirrorRoot, repo.replace("/", "+"), "repo");
  if (existsSync(join(dir, ".git"))) return join(dir, ".git");
  return existsSync(dir) ? dir : undefined;
}

const git = (gitDir: string, args: string[], input?: string) =>
  new Promise<string>((resolve, reject) => {
    const child = execFile("git", ["--git-dir", gitDir, ...args], { maxBuffer: 256 << 20 }, (err, stdout) =>
      err ? reject(err) : resolve(stdout),
    );
    if (input !== undefined) child.stdin?.end(input);
  });

/**
 * Writes `outDir/<id>/` (the tree at base_commit, minus blobs the mirror lacks) and
 * `outDir/<id>.issue.md`, like shared/eval/materialize.sh does for SWE-bench.
 */
export async function materializeFixture(
  f: Fixture,
  mirrorRoot: string,
  outDir: string,
): Promise<{ dir: string; issueFile: string }> {
  const gitDir = mirrorGitDir(mirrorRoot, f.repo);
  if (!gitDir) throw new Error(`no mirror of ${f.repo} under ${mirrorRoot}`);
  await mkdir(outDir, { recursive: true });
  const dir = join(outDir, f.instance_id);
  const issueFile = `${dir}.issue.md`;
  await writeFile(issueFile, f.problem_statement);
  if (existsSync(dir)) return { dir, issueFile };
  const listing = (await git(gitDir, ["ls-tree", "-r", f.base_commit]))
    .split("\n")
    .map((l) => /^\d+ blob ([0-9a-f]+)\t(.*)$/.exec(l))
    .filter((m): m is RegExpExecArray => !!m);
  const check = await git(gitDir, ["cat-file", "--batch-check"], listing.map((m) => `${m[1]}\n`).join(""));
  const missing = new Set(check.split("\n").flatMap((l) => (l.endsWith(" missing") ? [l.split(" ")[0]] : [])));
  const excludes = listing.filter((m) => missing.has(m[1])).map((m) => `:(exclude,literal)${m[2]}`);
  const tmp = await mkdtemp(join(outDir, ".tmp."));
  try {
    await run("bash", [
      "-c",
      'set -o pipefail; out=$0 g=$1 sha=$2; shift 2; git --git-dir="$g" archive "$sha" -- . "$@" | tar -x -C "$out"',
      tmp,
      gitDir,
      f.base_commit,
      ...excludes,
    ]);
    await rename(tmp, dir);
  } catch (err) {
    await rm(tmp, { recursive: true, force: true });
    throw err;
  }
  return { dir, issueFile };
}
