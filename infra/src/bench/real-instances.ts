import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { oracleReproduction, oracleSolution, parseDiff } from "@fixloop/testkit/sandbox";
import type { GeneratedSolution, ReproductionAnswer } from "@fixloop/contract";

/** A SWE-bench Lite tune instance with its tests (swe-bench-lite-tune.json joined with -tests.json). */
export interface RealInstance {
  instance_id: string;
  repo: string;
  base_commit: string;
  problem_statement: string;
  patch: string;
  test_patch: string;
  version: string;
  FAIL_TO_PASS: string[];
  PASS_TO_PASS: string[];
}

export function loadInstances(evalDir: string): RealInstance[] {
  const read = (f: string) => JSON.parse(fs.readFileSync(path.join(evalDir, f), "utf8")) as Record<string, string>[];
  const tests = new Map(read("swe-bench-lite-tune-tests.json").map((t) => [t.instance_id, t]));
  return read("swe-bench-lite-tune.json").flatMap((i) => {
    const t = tests.get(i.instance_id ?? "");
    if (!t) return [];
    return [
      {
        ...(i as unknown as RealInstance),
        test_patch: t.test_patch ?? "",
        FAIL_TO_PASS: JSON.parse(t.FAIL_TO_PASS ?? "[]") as string[],
        PASS_TO_PASS: JSON.parse(t.PASS_TO_PASS ?? "[]") as string[],
      },
    ];
  });
}

/** sympy instances of version >= 1.7 (they need only python3-pytest and python3-mpmath), in file order. */
export const sympyFrom17 = (all: RealInstance[]) =>
  all.filter((i) => {
    const [maj = 0, min = 0] = i.version.split(".").map(Number);
    return i.repo === "sympy/sympy" && (maj > 1 || (maj === 1 && min >= 7));
  });

const git = (cwd: string, ...args: string[]) =>
  execFileSync("git", args, {
    cwd,
    encoding: "utf8",
    maxBuffer: 256 * 1024 * 1024,
    env: {
      ...process.env,
      GIT_AUTHOR_NAME: "Maintainer",
      GIT_AUTHOR_EMAIL: "m@example.com",
      GIT_COMMITTER_NAME: "Maintainer",
      GIT_COMMITTER_EMAIL: "m@example.com",
    },
  });

/** Writes the tree at `commit` of a bare mirror into `dir` (no history). */
export function materialize(mirrorGitDir: string, commit: string, dir: string): void {
  fs.rmSync(dir, { recursive: true, force: true });
  fs.mkdirSync(dir, { recursive: true });
  execFileSync("sh", ["-c", `git --git-dir="$1" archive "$2" | tar -x -C "$3"`, "sh", mirrorGitDir, commit, dir]);
}

/** Commits `dir` as one commit and force-pushes it as `main` of the stand-in's bare repository. */
export function pushTree(dir: string, standInGitDir: string, message: string): void {
  git(dir, "init", "-q", "-b", "main");
  git(dir, "add", "-A");
  git(dir, "commit", "-q", "--no-verify", "-m", message);
  git(dir, "push", "-q", "--force", standInGitDir, "HEAD:refs/heads/main");
}

/**
 * The oracle's answers for an instance on the tree in `dir` (a git work tree at the base): the
 * merged pull request as edits (its `patch` and its `test_patch`: a fix that changes behaviour an
 * existing test pinned updates that test, as the merged one did), and a reproduction test cut from
 * the test file `test_patch` changes.
 * Checks both patches apply (`git apply --check`); leaves `dir` unchanged.
 */
export function oracleAnswers(
  dir: string,
  inst: RealInstance,
): { solution: GeneratedSolution; reproduction: ReproductionAnswer; gold: string[] } {
  const tmp = path.join(dir, ".git", "oracle.diff");
  fs.writeFileSync(tmp, inst.patch);
  git(dir, "apply", "--check", tmp);
  fs.writeFileSync(tmp, inst.test_patch);
  git(dir, "apply", tmp);
  const testFiles = parseDiff(inst.test_patch).map((f) => f.path);
  const testFile =
    testFiles.find((f) =>
      inst.FAIL_TO_PASS.some((n) => fs.readFileSync(path.join(dir, f), "utf8").includes(`def ${n}(`)),
    ) ??
    testFiles[0] ??
    "";
  const patched = testFile ? fs.readFileSync(path.join(dir, testFile), "utf8") : "";
  git(dir, "checkout", "-q", "--", ".");
  git(dir, "clean", "-qfd");
  return {
    solution: oracleSolution(`${inst.patch.replace(/\n?$/, "\n")}${inst.test_patch}`),
    reproduction: oracleReproduction(testFile, patched, inst.FAIL_TO_PASS),
    gold: parseDiff(inst.patch).map((f) => f.path),
  };
}
