/**
 * Adds fixtures from fix commits: `tsx make-fixtures.ts --mirror MIRROR_ROOT [--data FILE] < picks`,
 * one `owner/name fix_commit language` per line. Gold = the commit's source files outside tests
 * (1 to 3); the issue text comes from the commit message (`text_source: "commit"`) until the
 * issue's own text replaces it. Entries already in the file are kept as they are.
 */
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { parseArgs } from "node:util";
import {
  commitIssueText,
  type Fixture,
  fixedIssue,
  isGoldSource,
  LANGUAGES,
  type Language,
  mirrorGitDir,
  NONPY_DATA,
} from "./fixtures";

const { values } = parseArgs({
  options: {
    mirror: { type: "string", default: process.env.MIRROR_ROOT ?? "" },
    data: { type: "string", default: NONPY_DATA },
  },
});
const file = values.data ?? NONPY_DATA;
const fixtures: Fixture[] = existsSync(file) ? (JSON.parse(readFileSync(file, "utf8")) as Fixture[]) : [];
const known = new Set(fixtures.map((f) => f.fix_commit));
for (const line of readFileSync(0, "utf8").split("\n")) {
  const [repo, sha, language] = line.trim().split(/\s+/);
  if (!repo || !sha) continue;
  if (!LANGUAGES.includes(language as Language)) throw new Error(`${line}: unknown language`);
  const gitDir = mirrorGitDir(values.mirror ?? "", repo);
  if (!gitDir) throw new Error(`no mirror of ${repo}`);
  const git = (...args: string[]) => execFileSync("git", ["--git-dir", gitDir, ...args], { encoding: "utf8" });
  const fix = git("rev-parse", `${sha}^{commit}`).trim();
  if (known.has(fix)) continue;
  const [subject = "", ...rest] = git("log", "-1", "--format=%s%n%b", fix).split("\n");
  const body = rest.join("\n");
  const issue = fixedIssue(`${subject}\n${body}`);
  const changed = git("diff-tree", "--no-commit-id", "--name-only", "-r", `${fix}^`, fix).split("\n").filter(Boolean);
  const gold = changed.filter(isGoldSource);
  const text = commitIssueText(subject, body);
  if (!issue || gold.length === 0 || gold.length > 3 || !text) {
    process.stderr.write(`${repo} ${sha}: skipped (issue ${issue ?? "none"}, ${gold.length} source files)\n`);
    continue;
  }
  fixtures.push({
    instance_id: `${repo.replace("/", "__")}-${issue}`,
    repo,
    base_commit: git("rev-parse", `${fix}^`).trim(),
    fix_commit: fix,
    problem_statement: text,
    text_source: "commit",
    language: language as Language,
    gold,
  });
  known.add(fix);
}
writeFileSync(file, `${JSON.stringify(fixtures, null, 2)}\n`);
process.stderr.write(`${fixtures.length} fixtures in ${file}\n`);
