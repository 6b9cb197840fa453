import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { authorizeRepositories, screenshot, signIn, startE2E, toast, type E2E } from "./e2e.harness";

// hubot/markdown-lint's .fixloop.yml asks for network during setup; octocat imports one of its issues.
let e2e: E2E;
let page: Page;
let phone: Page;
const TITLE = "trailing-spaces ignores trailing tabs";

/** Commits `files` on hubot/markdown-lint's default branch, as its maintainer would. */
function push(files: Record<string, string>) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "fixloop-e2e-push-"));
  const env = { ...process.env, GIT_AUTHOR_NAME: "M", GIT_AUTHOR_EMAIL: "m@example.com" };
  const git = (...args: string[]) =>
    execFileSync("git", args, { cwd: dir, env: { ...env, GIT_COMMITTER_NAME: "M", GIT_COMMITTER_EMAIL: "m@x.com" } });
  try {
    git("clone", "-q", e2e.github.gitDir("hubot", "markdown-lint"), ".");
    for (const [name, content] of Object.entries(files)) fs.writeFileSync(path.join(dir, name), content);
    git("add", "-A");
    git("commit", "-qm", "Ask for network during setup");
    git("push", "-q", "origin", "HEAD");
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

beforeAll(async () => {
  e2e = await startE2E("setup-network");
  push({
    ".fixloop.yml": 'test: cat net.txt; npm test\nsetup: echo "proxy=${HTTPS_PROXY:-none}" > net.txt\nnetwork: true\n',
  });
  e2e.models.respondWith(() => true, {
    analysis: "The rule needs a note.",
    proposedSolution: "Add a note.",
    confidence: 80,
    files: [{ filename: "NOTE.md", action: "create" as const, edits: [], content: "# Note\n" }],
  });
  ({ page } = await e2e.newPage());
  ({ page: phone } = await e2e.newPage({ width: 390 }));
  await signIn(page, "octocat");
  await authorizeRepositories(page, "octocat");
  await signIn(phone, "octocat");
});
afterAll(async () => {
  await e2e?.stop();
});

async function issueUrl(): Promise<string> {
  const res = await fetch(
    `${e2e.stack.sandboxes.github?.url}/repos/hubot/markdown-lint/issues?state=open&per_page=100`,
    {
      headers: { authorization: `Bearer ${e2e.github.issueToken("hubot", ["repo"])}` },
    },
  );
  const found = ((await res.json()) as { number: number; title: string }[]).find((i) => i.title === TITLE);
  if (!found) throw new Error(`no open issue "${TITLE}"`);
  return `https://github.com/hubot/markdown-lint/issues/${found.number}`;
}

/** The log tail of the solution a run produced (the tests print what setup wrote). */
async function logOf(p: Page, runId: string): Promise<string> {
  return p.evaluate(async (id) => {
    const { run } = (await (await fetch(`/api/runs/${id}`)).json()) as { run: { solutionId: string } };
    const v = (await (await fetch(`/api/validations/${run.solutionId}`)).json()) as {
      solution: { metadata: { tests: { logTail: string } } };
    };
    return v.solution.metadata.tests.logTail;
  }, runId);
}

const runOf = (p: Page) => new URL(p.url()).searchParams.get("run") ?? "";
const overflow = (p: Page) =>
  p.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);

describe("an imported repository's setup that wants network asks first", () => {
  it("the preview says so; the solve page offers allow once / always / never and allow once re-runs with network", async () => {
    await page.goto("/contribute");
    await page.getByLabel("GitHub issue URL").fill(await issueUrl());
    await page.getByRole("button", { name: "Preview Issue" }).click();
    await page.getByText(/allow once \(the next run\), always .* or never \(the default/).waitFor();
    await page.getByRole("button", { name: "Import & Solve with AI" }).click();
    await toast(page, "Issue imported successfully!");
    await page.waitForURL(/\/issues\/[^/]+\/solve/);
    // "Import & Solve" starts the run by itself; pressing Generate as well would race it.
    await page.waitForURL(/[?&]run=/, { timeout: 60_000 });
    const first = runOf(page);
    const choice = page.getByTestId("setup-network-choice");
    await choice.waitFor({ timeout: 120_000 });
    expect(await logOf(page, first)).toContain("proxy=none");
    await screenshot(page, "setup-network-choice-1280");

    await choice.getByRole("button", { name: "Allow once" }).click();
    await page.waitForURL((u) => (u.searchParams.get("run") ?? first) !== first);
    await page.getByTestId("solution-result").waitFor({ timeout: 120_000 });
    expect(await logOf(page, runOf(page))).toMatch(/proxy=http:\/\/127\.0\.0\.1:\d+/);
    expect(await choice.count()).toBe(0);

    // At 390 px the first run's page still asks; "never" starts nothing and says setup stays offline.
    await phone.goto(`${new URL(page.url()).pathname}?run=${first}`);
    const small = phone.getByTestId("setup-network-choice");
    await small.waitFor({ timeout: 30_000 });
    expect(await overflow(phone)).toBeLessThanOrEqual(0);
    await screenshot(phone, "setup-network-choice-390");
    await small.getByRole("button", { name: "Never" }).click();
    await small.getByText("Never: setup stays offline for this repository.").waitFor();
    expect(runOf(phone)).toBe(first);
  });
});
