import { describe, expect, it } from "vitest";
import { screenshot, seriousA11yViolations, solveAndReview, toast } from "./e2e.harness";
import { REVIEW_TITLE, uiStates } from "./ui-states.setup";

// A failing check reported on the stand-in's pull-request page (as a reviewer would on GitHub):
// its log excerpt shows on Fixloop's card and Address is offered for it alone. Address keeps
// running when the page is left; coming back shows the run and, once done, links the revision
// waiting for approval. At 1280 and 390 px.
const ui = uiStates("address-resume", { signedIn: true });

const EXCERPT = "FAIL paginate.test.ts > returns 10 items: expected 10, got 11";
const JOB_FAIL = "FAIL paginate.test.ts > page 3 starts at 41: got 42";

describe("addressing a failing check, leaving the page and coming back", () => {
  it("shows the check's log and an Actions job's log tail, offers Address for them alone, and shows the run and then the revision waiting for approval", async () => {
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
    // And a failing GitHub Actions job with its log: Fixloop reads the log's end from the jobs API.
    await form.getByLabel("Check", { exact: true }).fill("test (20.x)");
    await form.getByLabel("Reported by").selectOption("github-actions");
    await form.getByLabel("Log excerpt").fill("");
    await form.getByLabel(/^Job log/).fill(`${"ok paginate page\n".repeat(400)}${JOB_FAIL}\n`);
    await form.getByRole("button", { name: "Report check" }).click();
    expect((await github.webhookDeliveries()).every((d) => d.status === 200)).toBe(true);

    await ui.sharePhoneSession();
    const cardOf = (page: typeof ui.desk) =>
      page.locator("li", { has: page.getByRole("heading", { name: title }) }).first();
    for (const [page, w] of ui.both()) {
      // The job's log is read by a sync job after the webhook: the page is opened again until it is there.
      const card = cardOf(page);
      for (let tries = 0; ; tries++) {
        await page.goto("/pull-requests");
        await card.getByText(EXCERPT).waitFor();
        if ((await card.getByText(JOB_FAIL).count()) > 0) break;
        if (tries > 40) throw new Error("the Actions job's log never showed on the card");
        await page.waitForTimeout(250);
      }
      expect(await card.getByText("ok paginate page").count()).toBeGreaterThan(0);
      // The job log's box opens at its end, where the failure is.
      const job = card.getByTestId("check-output").filter({ hasText: JOB_FAIL });
      expect(await job.evaluate((el) => el.scrollHeight - el.clientHeight - el.scrollTop)).toBeLessThanOrEqual(1);
      await card.getByRole("button", { name: "Address the failing checks (2)" }).waitFor();
      expect(await seriousA11yViolations(page), `failing check at ${w}`).toEqual([]);
      await screenshot(page, `address-failing-check-${w}`);
    }

    // Each model answer takes a while: the refinement is still running when the page is left and reopened.
    ui.e2e.models.latency(4000);
    try {
      await cardOf(ui.desk).getByRole("button", { name: "Address the failing checks (2)" }).click();
      await toast(ui.desk, "Addressing 2 failing checks");
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
