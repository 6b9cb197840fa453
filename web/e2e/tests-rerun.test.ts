import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { screenshot, signIn, signInWithTodoApi, solveAndReview, startE2E, toast, type E2E } from "./e2e.harness";

// A manual edit re-runs the repository's tests as a job, live on the validation page; the PR says
// "passed" only for evidence about the final files.
let e2e: E2E;
let page: Page;
let phone: Page;

beforeAll(async () => {
  e2e = await startE2E("tests-rerun");
  ({ page } = await e2e.newPage());
  ({ page: phone } = await e2e.newPage({ width: 390 }));
  await signInWithTodoApi(page);
  await signIn(phone, "octocat");
  e2e.models.respondWith(() => true, {
    analysis: "The behaviour needs a note.",
    proposedSolution: "Add a note.",
    confidence: 80,
    files: [{ filename: "MARK.md", action: "create" as const, edits: [], content: "# Marked\n" }],
  });
  // The tests print MARK.md (so the live log shows the edited file) and take a few seconds; they
  // fail once MARK.md says BREAKS. "has a mark" fails on the base tree and passes with the change: the proof.
  const status = await page.evaluate(async () => {
    const verdict =
      "if grep -q BREAKS MARK.md 2>/dev/null; then echo 'not ok 1 - adds todos'; else echo 'ok 1 - adds todos'; fi";
    const marked = "if [ -f MARK.md ]; then echo 'ok 2 - has a mark'; else echo 'not ok 2 - has a mark'; fi";
    const command = `printf 'TAP version 13\\n'; ${verdict}; ${marked}; printf '1..2\\n'; cat MARK.md 2>/dev/null; sleep 4`;
    const res = await fetch("/api/github/repositories/octocat/todo-api/test-settings", {
      method: "PUT",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ command, setup: null, timeoutSeconds: 120, setupNetwork: false }),
    });
    return res.status;
  });
  expect(status).toBe(200);
});
afterAll(async () => {
  await e2e?.stop();
});

/** Edits MARK.md on the open validation page and checks the live re-run until its fresh verdict. */
async function editAndWatch(p: Page, line: string, shot: string, verdict = "passed") {
  await p
    .getByRole("button", { name: /^Edit This File: / })
    .first()
    .click();
  await p.getByTestId("file-editor").locator(".cm-content").click();
  await p.keyboard.press("Control+End");
  await p.keyboard.type(`\n${line}\n`);
  await p.getByRole("button", { name: "Save Changes" }).click();
  await toast(p, "Solution modified successfully!");
  const live = p.getByTestId("tests-rerun");
  await live.waitFor({ timeout: 30_000 });
  await p.getByTestId("tests-rerun-log").filter({ hasText: line }).waitFor({ timeout: 60_000 });
  expect(await p.getByTestId("tests-verdict").textContent()).toBe("not run on the edited code");
  const overflow = await p.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  expect(overflow).toBeLessThanOrEqual(0);
  await screenshot(p, shot);
  await p.getByTestId("tests-rerun-done").waitFor({ timeout: 60_000 });
  expect(await live.count()).toBe(0);
  expect(await p.getByTestId("tests-verdict").textContent()).toBe(verdict);
  expect(await p.getByTestId("tests-panel").getAttribute("data-stale")).toBeNull();
}

describe("tests re-run after a manual edit", () => {
  it("streams the re-run live at 1280 px, replaces the stale evidence and the PR says the tests passed", async () => {
    await solveAndReview(page, "Pagination skips a todo at every page boundary");
    await editAndWatch(page, "Checked by hand at 1280.", "tests-rerun-live-1280");
    await page.getByRole("button", { name: "Approve & Create PR" }).click();
    await toast(page, "PR Created Successfully!");
    const pull = e2e.github.listPulls("octocat", "todo-api").at(-1);
    expect(pull?.body).toContain("- Tests: **passed**");
    expect(pull?.body).not.toContain("before the manual edits");
  });

  it("does the same at 390 px", async () => {
    await solveAndReview(page, "Whitespace-only titles are accepted");
    await phone.goto(page.url());
    await phone.getByTestId("tests-panel").waitFor();
    await editAndWatch(phone, "Checked by hand at 390.", "tests-rerun-live-390");
  });

  it("marks the solution unverified when the re-run finds a regression, at 1280 and 390 px", async () => {
    await solveAndReview(page, "Todos due today are already marked overdue");
    await editAndWatch(page, "BREAKS the tests.", "tests-rerun-regression-live-1280", "regressions: adds todos");
    const reason = "The change breaks tests that passed before (adds todos).";
    for (const p of [page, phone]) {
      if (p === phone) await phone.goto(page.url());
      await p.getByTestId("unverified").filter({ hasText: reason }).waitFor();
      await p.getByRole("button", { name: "Approve unverified & Create draft PR" }).waitFor();
      const overflow = await p.evaluate(
        () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
      );
      expect(overflow).toBeLessThanOrEqual(0);
      await screenshot(p, `tests-rerun-unverified-${p === phone ? 390 : 1280}`);
    }
  });
});
