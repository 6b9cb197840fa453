import { execFileSync, spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ROOT } from "../../paths";
import { SEED_REPOS, SEEDED_FIXES, type SeededFix } from "./seed";
import { applyEdits, startTestSandbox, type TestSandbox } from "../../../test/github-sandbox";

const has = (cmd: string) => spawnSync(cmd, ["--version"], { stdio: "ignore" }).status === 0;
const TSX = path.join(ROOT, "node_modules/.bin/tsx");

/** How each seeded repository runs its own test suite here (null: toolchain not installed). */
const RUNNERS: Record<string, ((dir: string) => string[]) | null> = {
  "octocat/todo-api": (dir) => [TSX, "--test", ...fs.readdirSync(path.join(dir, "test")).map((f) => path.join(dir, "test", f))],
  "octocat/weather-cli": has("python3") ? () => ["python3", "-m", "unittest", "discover", "-s", "tests"] : null,
  "hubot/markdown-lint": () => [process.execPath, "--test"],
  "octocat/url-shortener": has("go") ? () => ["go", "test", "./..."] : null,
};

let t: TestSandbox;
const work = fs.mkdtempSync(path.join(os.tmpdir(), "gh-seed-"));
beforeAll(async () => {
  t = await startTestSandbox();
});
afterAll(async () => {
  await t.stop();
  fs.rmSync(work, { recursive: true, force: true });
});

function checkout(full: string, name: string): string {
  const [owner = "", repo = ""] = full.split("/");
  const dir = path.join(work, name);
  fs.mkdirSync(dir, { recursive: true });
  const tar = execFileSync("git", ["--git-dir", t.sandbox.control.gitDir(owner, repo), "archive", "main"]);
  execFileSync("tar", ["-x", "-C", dir], { input: tar });
  return dir;
}

function apply(dir: string, fixes: SeededFix[], only?: (file: string) => boolean): void {
  for (const fix of fixes) {
    for (const file of fix.files) {
      if (only && !only(file.filename)) continue;
      const target = path.join(dir, file.filename);
      if (file.action === "delete") fs.rmSync(target);
      else if (file.action === "create") fs.writeFileSync(target, file.content ?? "");
      else fs.writeFileSync(target, applyEdits(fs.readFileSync(target, "utf8"), file.edits ?? []));
    }
  }
}

function runTests(full: string, dir: string): { ok: boolean; output: string } {
  const runner = RUNNERS[full];
  if (!runner) throw new Error(`no runner for ${full}`);
  const [cmd = "", ...args] = runner(dir);
  const res = spawnSync(cmd, args, { cwd: dir, encoding: "utf8", env: { ...process.env, NODE_OPTIONS: "" }, timeout: 60_000 });
  return { ok: res.status === 0, output: `${res.stdout}\n${res.stderr}` };
}

const isTestFile = (f: string) => /(^|\/)(test|tests)\/|_test\.go$/.test(f);

describe("seed", () => {
  it("has a known fix for every open seeded issue and only for open issues", () => {
    const open = SEED_REPOS.flatMap((r) =>
      r.issues.flatMap((issue, i) => (issue.state === "open" ? [`${r.owner}/${r.name}#${i + 1}`] : [])),
    );
    const fixed = SEEDED_FIXES.map((f) => `${f.repo}#${f.issueNumber}`);
    expect(fixed.sort()).toEqual(open.sort());
    expect(SEED_REPOS.filter((r) => !r.private).map((r) => r.owner)).toEqual(expect.arrayContaining(["octocat", "hubot"]));
  });

  it("gives each seeded repository a README, a CI workflow and labelled issues", () => {
    for (const r of SEED_REPOS.filter((x) => !x.private)) {
      const files = t.git(r.owner, r.name, "ls-tree", "-r", "--name-only", "main").split("\n");
      expect(files).toEqual(expect.arrayContaining(["README.md", ".github/workflows/ci.yml"]));
      expect(files.length).toBeGreaterThanOrEqual(5);
      expect(r.issues.some((i) => i.state === "closed")).toBe(true);
      expect(r.issues.every((i) => i.labels.length > 0)).toBe(true);
    }
  });

  it.each(SEEDED_FIXES.map((f) => [`${f.repo}#${f.issueNumber}`, f] as const))("fix %s applies to the seeded files: every search occurs exactly once", (_, fix) => {
    const [owner = "", repo = ""] = fix.repo.split("/");
    for (const file of fix.files.filter((f) => f.action === "modify")) {
      const content = t.git(owner, repo, "show", `main:${file.filename}`) + "\n";
      for (const edit of file.edits ?? []) {
        expect(content.split(edit.search).length - 1, `${file.filename}: ${edit.search}`).toBe(1);
      }
      expect(applyEdits(content, file.edits ?? [])).not.toBe(content);
    }
  });

  const runnable = Object.entries(RUNNERS).filter(([, r]) => r !== null).map(([name]) => name);
  it.each(runnable)("%s: its tests pass as seeded and after all known fixes, and added tests fail without the fix", (full) => {
    const seeded = runTests(full, checkout(full, `${full.replace("/", "_")}-seeded`));
    expect(seeded.ok, seeded.output).toBe(true);

    const fixes = SEEDED_FIXES.filter((f) => f.repo === full);
    const fixedDir = checkout(full, `${full.replace("/", "_")}-fixed`);
    apply(fixedDir, fixes);
    const fixed = runTests(full, fixedDir);
    expect(fixed.ok, fixed.output).toBe(true);

    if (fixes.some((f) => f.files.some((file) => isTestFile(file.filename)))) {
      const testsOnly = checkout(full, `${full.replace("/", "_")}-tests-only`);
      apply(testsOnly, fixes, isTestFile);
      expect(runTests(full, testsOnly).ok).toBe(false);
    }
  }, 180_000);
});
