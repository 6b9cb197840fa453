import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import {
  openSolve,
  screenshot,
  seriousA11yViolations,
  signInWithTodoApi,
  startE2E,
  toast,
  type E2E,
} from "./e2e.harness";
import { atBothWidths, sharePhoneSession } from "./walk.helpers";

// A repository's trust card (issue #28, point 5), at desktop and phone width.
let e2e: E2E;
let desk: Page;
let phone: Page;

beforeAll(async () => {
  e2e = await startE2E("trust-card");
  ({ page: desk } = await e2e.newPage({ width: 1280 }));
  ({ page: phone } = await e2e.newPage({ width: 390 }));
  await signInWithTodoApi(desk);
  await sharePhoneSession(desk, phone);
});
afterAll(async () => {
  await e2e?.stop();
});

const both = () => atBothWidths(desk, phone);

describe("a repository's trust card", () => {
  it("measures a repository's trust card and shows it on the repository page and its solve pages", async () => {
    const line = "Fixloop found the fixing files in the top 5 for 2 of 3 past issues here";
    await desk.goto("/repositories");
    // Not measured yet: the card is a closed disclosure, like the repository's other settings.
    expect(await desk.locator("#octocat-url-shortener-backtest").isVisible()).toBe(false);
    await desk
      .getByRole("group", { name: "Trust card" })
      .filter({ has: desk.locator("#octocat-url-shortener-backtest") })
      .getByText("How would Fixloop have done here?")
      .click();
    await desk.locator("#octocat-url-shortener-backtest").fill("5");
    await desk.getByRole("button", { name: "Run backtest of octocat/url-shortener" }).click();
    await desk.getByText(line).waitFor({ timeout: 60_000 });
    await desk.getByRole("button", { name: "Fetch issues of octocat/url-shortener" }).click();
    await toast(desk, /^Fetched \d+ issues$/);
    for (const [page, width] of both()) {
      await page.goto("/repositories");
      const card = page.getByRole("region", { name: "Trust card" }).filter({ hasText: line });
      await card.waitFor();
      expect(await card.textContent()).toContain("Top 1: 2 of 3 (67%) · Top 5: 2 of 3 (67%)");
      expect(await page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth)).toBe(false);
      expect(await seriousA11yViolations(page), `repositories at ${width}`).toEqual([]);
      await card.scrollIntoViewIfNeeded();
      await screenshot(page, `walk-trust-card-${width}`);
      await openSolve(page, "The very first short link gets an empty code");
      await page.getByTestId("trust-line").filter({ hasText: line }).waitFor();
      await screenshot(page, `walk-trust-line-${width}`);
    }
  });

  it("solves past issues on request and shows solves verified and the cost per solve on the card and on solves", async () => {
    // The model answers todo-api's issue #1 with its merged pull request's fix; #2 gets an unrelated change.
    e2e.models.respondWith((p) => p.includes("Add DELETE /todos/:id"), {
      analysis: "TodoStore has no way to remove a todo.",
      proposedSolution: "Add TodoStore.remove().",
      confidence: 80,
      files: [
        {
          filename: "src/store.ts",
          action: "modify",
          edits: [
            {
              search: "  update(id: number, patch: TodoPatch): Todo | undefined {\n",
              replace:
                "  remove(id: number): boolean {\n    return this.todos.delete(id);\n  }\n\n  update(id: number, patch: TodoPatch): Todo | undefined {\n",
            },
          ],
        },
      ],
    });
    await desk.goto("/repositories");
    const form = desk
      .getByRole("group", { name: "Trust card" })
      .filter({ has: desk.locator("#octocat-todo-api-backtest") });
    await form.getByText("How would Fixloop have done here?").click();
    await desk.locator("#octocat-todo-api-backtest").fill("2");
    await form.getByRole("checkbox", { name: /Also solve each one/ }).check();
    await desk.getByRole("button", { name: "Run backtest of octocat/todo-api" }).click();
    const solves = /Solves verified: 1 of 2 · cost per solve \$\d+\.\d+/;
    await desk.getByText(solves).waitFor({ timeout: 90_000 });
    for (const [page, width] of both()) {
      await page.goto("/repositories");
      const card = page.getByRole("region", { name: "Trust card" }).filter({ hasText: solves });
      await card.waitFor();
      // A backtest that only localized says plainly that no solve was requested.
      await page
        .getByRole("region", { name: "Trust card" })
        .filter({ hasText: "top 5 for 2 of 3 past issues" })
        .getByText("Solves: not requested")
        .waitFor();
      expect(await page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth)).toBe(false);
      expect(await seriousA11yViolations(page), `trust card with solves at ${width}`).toEqual([]);
      await card.getByText("Issues checked").click();
      await card
        .getByText(/solve not verified: Still failing with the solve's patch: "rejects a missing title"/)
        .waitFor();
      await card.scrollIntoViewIfNeeded();
      await screenshot(page, `walk-trust-solves-${width}`);
      await openSolve(page, "Todos due today are already marked overdue");
      await page.getByTestId("trust-line").filter({ hasText: solves }).waitFor();
    }
  });
});
