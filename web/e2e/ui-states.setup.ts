import { execFileSync } from "node:child_process";
import { afterAll, beforeAll, expect } from "vitest";
import type { Page } from "playwright-core";
import { createDb } from "@fixloop/db";
import { insertRun, seedSolution, type SeedSolution } from "@fixloop/testkit";
import { signInWithTodoApi, startE2E, type E2E } from "./e2e.harness";

export const EXPORT_TITLE = "CSV export drops the due date";
export const SORT_TITLE = "Sorting ignores the priority";
export const REVIEW_TITLE = "Whitespace-only titles are accepted";
export const SPAM_TITLE = "Win a free crypto wallet";

/** A ui-states file's stack and its two pages, `desk` at 1280 px and `phone` at 390 px, set before its tests run. */
export class UiStates {
  e2e!: E2E;
  desk!: Page;
  phone!: Page;
  /** The issues `seedIssues` added to octocat/todo-api, and the pull request that references the export one. */
  issues = { exportIssue: 0, sortIssue: 0, spamIssue: 0, pullNumber: 0 };

  both() {
    return [
      [this.desk, "1280"],
      [this.phone, "390"],
    ] as const;
  }

  /**
   * A solution awaiting review of `repoFullName`'s issue `issueNumber` (stored with it, as a solve
   * leaves them) for `username`, written to the stack's database; its ids.
   */
  async seedSolutionOf(username: string, s: Omit<SeedSolution, "userId">) {
    const db = createDb(this.e2e.stack.env.DATABASE_URL ?? "", { max: 1 });
    try {
      const u = await db.selectFrom("users").select("id").where("username", "=", username).executeTakeFirstOrThrow();
      return await seedSolution(db, { ...s, userId: u.id });
    } finally {
      await db.destroy();
    }
  }

  /** A run of the issue a spending cap stopped (the one kind Resume takes), written to the stack's database; its id. */
  async capStoppedRunOf(issueId: string) {
    const db = createDb(this.e2e.stack.env.DATABASE_URL ?? "", { max: 1 });
    try {
      const issue = await db.selectFrom("issues").select("user_id").where("id", "=", issueId).executeTakeFirstOrThrow();
      const run = await insertRun(db, {
        user_id: issue.user_id,
        issue_id: issueId,
        status: "failed",
        error_code: "cost.run_cap_exceeded",
        error_message: "This run would pass its spending cap",
        quota_state: "released",
        finished_at: new Date(),
      });
      return run.id;
    } finally {
      await db.destroy();
    }
  }

  async sharePhoneSession(from: Page = this.desk) {
    await this.phone.context().clearCookies();
    await this.phone.context().addCookies(await from.context().cookies());
  }
}

/**
 * Starts the stack before the file's tests (and stops it after). `seedIssues`: adds the export,
 * sort and spam issues to octocat/todo-api and opens octocat's pull request for the export one.
 * `signedIn`: `desk` signs in as octocat with todo-api synced and its issues fetched.
 */
export function uiStates(name: string, o: { seedIssues?: boolean; signedIn?: boolean } = {}): UiStates {
  const ui = new UiStates();
  beforeAll(async () => {
    ui.e2e = await startE2E(name);
    ({ page: ui.desk } = await ui.e2e.newPage({ width: 1280 }));
    ({ page: ui.phone } = await ui.e2e.newPage({ width: 390 }));
    if (o.seedIssues) await seedIssues(ui);
    if (o.signedIn) await signInWithTodoApi(ui.desk);
  });
  afterAll(async () => {
    await ui.e2e?.stop();
  });
  return ui;
}

async function seedIssues(ui: UiStates) {
  const github = ui.e2e.github;
  [ui.issues.exportIssue = 0, ui.issues.sortIssue = 0] = github.addIssues("octocat", "todo-api", [
    { title: EXPORT_TITLE, body: "The `due` field is missing from `GET /todos.csv`.", user: "hubot" },
    { title: SORT_TITLE, body: "`GET /todos?sort=priority` returns them by creation date.", user: "hubot" },
  ]);
  [ui.issues.spamIssue = 0] = github.addIssues("octocat", "todo-api", [
    { title: SPAM_TITLE, body: "Click here.", user: "hubot" },
  ]);
  ui.issues.pullNumber = await openPullFromBranch(
    ui.e2e,
    `Fixes #${ui.issues.exportIssue}: keep the due date in the CSV export`,
  );
}

/** octocat pushes a branch and opens a pull request on GitHub (the stand-in) that references the export issue. */
async function openPullFromBranch(e2e: E2E, body: string): Promise<number> {
  const dir = e2e.github.gitDir("octocat", "todo-api");
  const git = (...args: string[]) =>
    execFileSync("git", ["--git-dir", dir, ...args], {
      encoding: "utf8",
      env: {
        ...process.env,
        GIT_AUTHOR_NAME: "octocat",
        GIT_AUTHOR_EMAIL: "o@example.com",
        GIT_COMMITTER_NAME: "octocat",
        GIT_COMMITTER_EMAIL: "o@example.com",
      },
    }).trim();
  const commit = git("commit-tree", "main^{tree}", "-p", "main", "-m", "Keep the due date in the CSV export");
  git("update-ref", "refs/heads/fix-export", commit);
  const res = await fetch(`${e2e.stack.sandboxes.github?.url}/repos/octocat/todo-api/pulls`, {
    method: "POST",
    headers: {
      authorization: `Bearer ${e2e.github.issueToken("octocat", ["repo"])}`,
      "content-type": "application/json",
    },
    body: JSON.stringify({ title: "Keep the due date in the CSV export", head: "fix-export", base: "main", body }),
  });
  expect(res.status).toBe(201);
  return ((await res.json()) as { number: number }).number;
}

export const issueCard = (page: Page, title: string) =>
  page.getByRole("listitem").filter({ has: page.getByRole("heading", { name: title, exact: true }) });
