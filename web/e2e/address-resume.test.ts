import { describe, expect, it } from "vitest";
import { screenshot, seriousA11yViolations, solveAndReview, toast } from "./e2e.harness";
import { REVIEW_TITLE, uiStates } from "./ui-states.setup";

// A failing check reported on the stand-in's pull-request page (as a reviewer would on GitHub):
// its log excerpt shows on Fixloop's card and Address is offered for it alone. Address keeps
// running when the page is left; coming back shows the run and, once done, links the revision
// waiting for approval. At 1280 and 390 px.
const ui = uiStates("address-resume", { signedIn: true });

const EXCERPT = "FAIL paginate.test.ts > returns 10 items: expected 10, got 11";

describe("addressing a failing check, leaving the page and coming back", () => {
  it("shows the check's log, offers Address for it alone, and shows the run and then the revision waiting for approval", async () => {
    const github = ui.e2e.github;
    const title = REVIEW_TITLE;
    await solveAndReview(ui.desk, title);
    const solutionId = new URL(ui.desk.url()).pathname.split("/").pop() ?? "";
    await ui.desk.getByRole("button", { name: "Approve & Create PR" }).click();
    await toast(ui.desk, "PR Created Successfully!");
    const pull = github.listPulls("octocat", "todo-api").find((p) => p.state === "open");
    expect(pull).toBeDefined();

    // On the stand-in's pull-request page, the "Report a check result" form (name "ci", failure).
    await ui.desk.goto(`${ui.e2e.stack.sandboxes.github?.url}/octocat/todo-api/pull/${pull?.number}`);
    const form = ui.desk.getByRole("form", { name: "Report a check result" });
    await form.getByLabel("Log excerpt").fill(`3 passed, 1 failed\n${EXCERPT}`);
    await form.getByRole("button", { name: "Report check" }).click();
    expect((await github.webhookDeliveries()).every((d) => d.status === 200)).toBe(true);

    await ui.sharePhoneSession();
    const cardOf = (page: typeof ui.desk) =>
      page.locator("li", { has: page.getByRole("heading", { name: title }) }).first();
    for (const [page, w] of ui.both()) {
      await page.goto("/pull-requests");
      const card = cardOf(page);
      await card.getByText(EXCERPT).waitFor();
      await card.getByRole("button", { name: "Address the failing check" }).waitFor();
      expect(await seriousA11yViolations(page), `failing check at ${w}`).toEqual([]);
      await screenshot(page, `address-failing-check-${w}`);
    }

    // Each model answer takes a while: the refinement is still running when the page is left and reopened.
    ui.e2e.models.latency(4000);
    try {
      await cardOf(ui.desk).getByRole("button", { name: "Address the failing check" }).click();
      await toast(ui.desk, "Addressing 1 failing check");
      await ui.desk.goto("/issues");
      for (const [page, w] of ui.both()) {
        await page.goto("/pull-requests");
        const card = cardOf(page);
        await card.getByText("Addressing the review").waitFor();
        expect(await card.getByRole("button", { name: /^Address/ }).count()).toBe(0);
        await screenshot(page, `address-running-after-return-${w}`);
      }
      for (const [page, w] of ui.both()) {
        const card = cardOf(page);
        const link = card.getByRole("link", { name: "Review and push revision 2" });
        await link.waitFor({ timeout: 60_000 });
        expect(await card.getByText("Revision 2 waits for your approval").count()).toBe(1);
        // The revision is reviewed and pushed before anything more is addressed.
        expect(await card.getByRole("button", { name: /^Address/ }).count()).toBe(0);
        expect(await seriousA11yViolations(page), `pending revision at ${w}`).toEqual([]);
        await screenshot(page, `address-pending-revision-${w}`);
        // Leaving the page did not lose the run: it stays on the pull request's page, not on the solution's.
        expect(page.url()).toMatch(/\/pull-requests$/);
      }
      await cardOf(ui.desk).getByRole("link", { name: "Review and push revision 2" }).click();
      await ui.desk.waitForURL(new RegExp(`/validations/${solutionId}$`));
      await ui.desk.getByRole("button", { name: "Approve and push revision 2" }).waitFor();
    } finally {
      ui.e2e.models.latency(0);
    }
  });
});
