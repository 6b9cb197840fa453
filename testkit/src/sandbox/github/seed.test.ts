import { execFileSync, spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { repairFiles, SEED_REPOS, SEEDED_FIXES, type SeededFix } from "./seed";
import { applyEdits, startTestSandbox, type TestSandbox } from "../../../test/github-sandbox";

const has = (cmd: string) => spawnSync(cmd, ["--version"], { stdio: "ignore" }).status === 0;

/** How each seeded repository runs its own test suite here, as its `npm test` or `.fixloop.yml` says (null: toolchain not installed). */
const PYTHON_TESTS = () => ["python3", "-m", "unittest", "discover", "-s", "tests", "-v"];
const RUNNERS: Record<string, (() => string[]) | null> = {
  "octocat/todo-api": () => ["npm", "test", "--silent"],
  "octocat/weather-cli": has("python3") ? PYTHON_TESTS : null,
  "hubot/markdown-lint": () => ["npm", "test", "--silent"],
  "octocat/url-shortener": has("go") ? () => ["go", "test", "./..."] : null,
  "octocat/secret-notes": has("python3") ? PYTHON_TESTS : null,
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

function runTests(full: string, dir: string): { ok: boolean; output: string; failing: string[] } {
  const runner = RUNNERS[full];
  if (!runner) throw new Error(`no runner for ${full}`);
  const [cmd = "", ...args] = runner();
  const res = spawnSync(cmd, args, {
    cwd: dir,
    encoding: "utf8",
    env: { ...process.env, NODE_OPTIONS: "" },
    timeout: 60_000,
  });
  // Failed tests as node --test (TAP) and unittest name them; go test reports only its exit status here.
  const tap = [...res.stdout.matchAll(/^\s*not ok \d+ - (.+)$/gm)]
    .map((m) => m[1] ?? "")
    .filter((name) => !/\.[cm]?js$|^test\/?$/.test(name));
  const unittest = [...res.stderr.matchAll(/^(?:FAIL|ERROR): (\w+)/gm)].map((m) => m[1] ?? "");
  const failing = [...new Set([...tap, ...unittest])];
  return { ok: res.status === 0, output: `${res.stdout}\n${res.stderr}`, failing };
}

const repoOf = (full: string) => SEED_REPOS.find((r) => `${r.owner}/${r.name}` === full);

const isTestFile = (f: string) => /(^|\/)(test|tests)\/|_test\.go$/.test(f);

describe("seed", () => {
  it("has a known fix for every open seeded issue and only for open issues", () => {
    const open = SEED_REPOS.flatMap((r) =>
      r.issues.flatMap((issue, i) => (issue.state === "open" ? [`${r.owner}/${r.name}#${i + 1}`] : [])),
    );
    const fixed = SEEDED_FIXES.map((f) => `${f.repo}#${f.issueNumber}`);
    expect(fixed.sort()).toEqual(open.sort());
    expect(SEED_REPOS.filter((r) => !r.private).map((r) => r.owner)).toEqual(
      expect.arrayContaining(["octocat", "hubot"]),
    );
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

  it.each(SEEDED_FIXES.map((f) => [`${f.repo}#${f.issueNumber}`, f] as const))(
    "fix %s applies to the seeded files: every search occurs exactly once",
    (_, fix) => {
      const [owner = "", repo = ""] = fix.repo.split("/");
      for (const file of fix.files.filter((f) => f.action === "modify")) {
        const content = t.git(owner, repo, "show", `main:${file.filename}`) + "\n";
        for (const edit of file.edits ?? []) {
          expect(content.split(edit.search).length - 1, `${file.filename}: ${edit.search}`).toBe(1);
        }
        expect(applyEdits(content, file.edits ?? [])).not.toBe(content);
      }
    },
  );

  const runnable = Object.entries(RUNNERS)
    .filter(([, r]) => r !== null)
    .map(([name]) => name);
  it.each(runnable)(
    "%s: its tests pass as seeded (but for the declared failing ones) and after all known fixes, and added tests fail without the fix",
    (full) => {
      const seeded = runTests(full, checkout(full, `${full.replace("/", "_")}-seeded`));
      const failing = repoOf(full)?.failingTests ?? [];
      expect(seeded.ok, seeded.output).toBe(failing.length === 0);
      expect(seeded.failing.sort(), seeded.output).toEqual([...failing].sort());

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
    },
    180_000,
  );

  it("seeds a failing test that a known fix turns green, and a first answer that breaks a passing test and whose repair mends it", () => {
    expect(SEED_REPOS.some((r) => (r.failingTests ?? []).length > 0)).toBe(true);
    const scripted = SEEDED_FIXES.filter((f) => f.firstAttempt && RUNNERS[f.repo]);
    expect(scripted.length).toBeGreaterThan(0);
    for (const fix of scripted) {
      const dir = checkout(fix.repo, `${fix.repo.replace("/", "_")}-first-attempt-${fix.issueNumber}`);
      apply(dir, [{ ...fix, files: fix.firstAttempt?.files ?? [] }]);
      const first = runTests(fix.repo, dir);
      const failingOnBase = repoOf(fix.repo)?.failingTests ?? [];
      expect(first.failing.filter((name) => !failingOnBase.includes(name)).length, first.output).toBeGreaterThan(0);
      // The repair round's answer, made on the first attempt's files, leaves only what failed on base.
      apply(dir, [{ ...fix, files: repairFiles(fix) }]);
      const repaired = runTests(fix.repo, dir);
      expect(
        repaired.failing.filter((name) => !failingOnBase.includes(name)),
        repaired.output,
      ).toEqual([]);
    }
  }, 120_000);
});
