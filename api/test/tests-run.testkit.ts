import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { TestStack } from "./stack";

/** Commits `files` on top of the default branch of a stand-in repository (as a maintainer pushing). */
export function pushFiles(
  stack: TestStack,
  owner: string,
  repo: string,
  files: Record<string, string>,
  message: string,
): string {
  const bare = stack.github.control.gitDir(owner, repo);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "fixloop-push-"));
  const git = (...args: string[]) =>
    execFileSync("git", args, {
      cwd: dir,
      encoding: "utf8",
      env: {
        ...process.env,
        GIT_AUTHOR_NAME: "Maintainer",
        GIT_AUTHOR_EMAIL: "m@example.com",
        GIT_COMMITTER_NAME: "Maintainer",
        GIT_COMMITTER_EMAIL: "m@example.com",
      },
    }).trim();
  try {
    git("clone", "-q", bare, ".");
    for (const [name, content] of Object.entries(files)) {
      fs.mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
      fs.writeFileSync(path.join(dir, name), content);
    }
    git("add", "-A");
    git("commit", "-qm", message);
    git("push", "-q", "origin", "HEAD");
    return git("rev-parse", "HEAD");
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** Every file under `dir` whose bytes contain `needle`. */
export function filesContaining(dir: string, needle: string): string[] {
  const hits: string[] = [];
  const walk = (d: string) => {
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.isFile() && fs.readFileSync(p).includes(needle)) hits.push(p);
    }
  };
  if (fs.existsSync(dir)) walk(dir);
  return hits;
}

export const TAB_TEST = `import assert from "node:assert/strict";
import { test } from "node:test";
import { check } from "../src/rules/trailing-spaces.js";

test("reports trailing tabs", () => {
  assert.equal(check(["text\\t"]).length, 1);
});
`;
