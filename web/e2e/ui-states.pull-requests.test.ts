import { beforeAll, describe, expect, it } from "vitest";
import { screenshot, seriousA11yViolations, solveAndReview, toast } from "./e2e.harness";
import { issueCard, REVIEW_TITLE, uiStates } from "./ui-states.setup";

// The pull requests page's sync failing, at 1280 and 390 px.
const ui = uiStates("ui-states-pull-requests", { signedIn: true });
// A solution awaiting review, for the test to approve into a pull request.
beforeAll(() => solveAndReview(ui.desk, REVIEW_TITLE));

describe("the pull requests page's sync at 1280 and 390 px", () => {
  it("keeps its own toast text on a failed sync and shows the server's reason under it", async () => {
    await ui.desk.goto("/issues");
    await issueCard(ui.desk, REVIEW_TITLE)
      .getByRole("link", { name: `Review Solution: ${REVIEW_TITLE}` })
      .click();
    await ui.desk.getByRole("button", { name: "Approve & Create PR" }).click();
    await toast(ui.desk, "PR Created Successfully!");
    await ui.desk.waitForURL(/\/pull-requests$/, { timeout: 10_000 });
    await ui.sharePhoneSession();
    for (const [page, w] of ui.both()) {
      await page.goto("/pull-requests");
      await page.getByText("octocat/todo-api", { exact: false }).first().waitFor();
      // GitHub fails every read of the pull request (the client's retries included).
      ui.e2e.github.failNext({ path: /\/todo-api\/pulls\/\d+/, status: 500, kind: "primary", times: 3 });
      await page.getByRole("button", { name: "Sync Status" }).click();
      const failed = page.locator("[data-sonner-toast]").filter({ hasText: "Failed to sync pull requests" });
      await failed.waitFor({ timeout: 30_000 });
      await failed.getByText("GitHub is unavailable, try again shortly", { exact: true }).waitFor();
      // Past the toast's entry animation.
      await page.waitForTimeout(600);
      expect(await seriousA11yViolations(page), `pull requests at ${w}`).toEqual([]);
      await screenshot(page, `pull-requests-sync-failed-${w}`);
    }
  });
});
