import fs from "node:fs";
import path from "node:path";
import { sql } from "kysely";
import { describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { createDb } from "@fixloop/db";
import { seedRepository } from "@fixloop/testkit";
import { SCREENSHOTS } from "./e2e.harness";
import { uiStates } from "./ui-states.setup";

// Issue #50: a user with more than 100 issues reads the list a page at a time, at 1280 and 390 px.
const ui = uiStates("issue-pages", { signedIn: true });

const OPEN = 130;
const CLOSED = 4;
const ANCIENT = "Ancient flaky test";

/** The visible part of the page around the list's end (a full page of 100+ cards is too tall to look at). */
async function viewShot(page: Page, name: string) {
  fs.mkdirSync(SCREENSHOTS, { recursive: true });
  await page.screenshot({ path: path.join(SCREENSHOTS, `${name}.png`) });
}

const cards = (page: Page) => page.locator("#issues-panel > ul > li");

describe("the issue list past 100 issues", () => {
  it("shows the first 100 issues, loads the rest on request, and filters each tab on the server", async () => {
    const db = createDb(ui.e2e.stack.env.DATABASE_URL ?? "", { max: 1 });
    try {
      const me = await db.selectFrom("users").select("id").where("username", "=", "octocat").executeTakeFirstOrThrow();
      const before = await db.selectFrom("issues").select("status").where("user_id", "=", me.id).execute();
      const backlog = await seedRepository(db, "octocat/backlog");
      // One statement: the seeded issues share their creation time, so pages split them by id.
      await sql`
        insert into issues (user_id, repository_github_id, issue_number, title, html_url, status)
        select ${me.id}, ${backlog}::bigint, g, 'Backlog item ' || g,
               'https://github.com/octocat/backlog/issues/' || g, case when g <= ${CLOSED} then 'closed' else 'open' end
        from generate_series(1, ${OPEN + CLOSED}) g`.execute(db);
      // Older than every other issue: never on a first page, found by the palette's search all the same.
      await sql`
        insert into issues (user_id, repository_github_id, issue_number, title, html_url, created_at)
        values (${me.id}, ${backlog}::bigint, 999, ${ANCIENT}, 'https://github.com/octocat/backlog/issues/999',
                now() - interval '1 day')`.execute(db);
      const openBefore = before.filter((i) => !["solved", "pr_created", "failed", "closed"].includes(i.status)).length;
      const openTotal = OPEN + openBefore + 1;
      await ui.sharePhoneSession();
      for (const [page, w] of ui.both()) {
        await page.goto("/issues");
        const openTab = page.getByRole("tab", { name: /^Open/ });
        await cards(page).nth(99).waitFor();
        expect(await openTab.textContent()).toContain(String(openTotal));
        expect(await cards(page).count()).toBe(100);
        const more = page.getByRole("button", { name: "Load more issues" });
        await more.scrollIntoViewIfNeeded();
        await viewShot(page, `issue-pages-first-${w}`);
        await more.click();
        await page.getByTestId("issues-end").waitFor();
        expect(await cards(page).count()).toBe(openTotal);
        expect(await page.getByTestId("issues-end").textContent()).toBe(`All ${openTotal} issues shown.`);
        expect(await more.count()).toBe(0);
        const titles = await cards(page).getByRole("heading").allTextContents();
        expect(new Set(titles).size).toBe(titles.length);
        for (let g = CLOSED + 1; g <= OPEN + CLOSED; g++) expect(titles).toContain(`Backlog item ${g}`);
        await page.getByTestId("issues-end").scrollIntoViewIfNeeded();
        await viewShot(page, `issue-pages-end-${w}`);
        await page.getByRole("tab", { name: /^Closed/ }).click();
        await page.getByTestId("issues-end").waitFor();
        const closed = await cards(page).getByRole("heading").allTextContents();
        for (let g = 1; g <= CLOSED; g++) expect(closed).toContain(`Backlog item ${g}`);
        expect(closed.some((t) => /^Backlog item (\d+)$/.exec(t)?.[1] === String(CLOSED + 1))).toBe(false);
        await page.keyboard.press("Control+k");
        const palette = page.getByRole("dialog", { name: "Command palette" });
        await palette.waitFor();
        await page.keyboard.type("ancient flaky");
        await palette.getByRole("option", { name: new RegExp(ANCIENT) }).waitFor();
        await viewShot(page, `issue-pages-search-${w}`);
        await page.keyboard.press("Enter");
        await page.getByRole("heading", { name: ANCIENT }).waitFor();
      }
    } finally {
      await db.destroy();
    }
  });
});
