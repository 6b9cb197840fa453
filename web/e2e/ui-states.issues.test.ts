import { describe, expect, it } from "vitest";
import { screenshot, seriousA11yViolations, signInWithTodoApi, toast } from "./e2e.harness";
import { roomBelowLastAction, toastBlocksActions, toastCoversNoAction } from "./ui-states.helpers";
import { EXPORT_TITLE, issueCard, REVIEW_TITLE, SORT_TITLE, SPAM_TITLE, uiStates } from "./ui-states.setup";

// Issue #25: states of the issues list a user must see (someone's open pull request, awaiting
// review, deleted on GitHub, phone toasts), each at 1280 and 390 px.
const ui = uiStates("ui-states-issues", { seedIssues: true });

describe("issue states at 1280 and 390 px", () => {
  it("says an open pull request already addresses an issue, on its card and before the solve", async () => {
    await signInWithTodoApi(ui.desk);
    await ui.sharePhoneSession();
    for (const [page, w] of ui.both()) {
      await page.goto("/issues");
      const card = issueCard(page, EXPORT_TITLE);
      await card.getByText("An open pull request already addresses this issue:").waitFor();
      const link = card.getByRole("link", { name: `#${ui.issues.pullNumber} by @octocat` });
      expect(await link.getAttribute("href")).toMatch(new RegExp(`/octocat/todo-api/pull/${ui.issues.pullNumber}$`));
      await screenshot(page, `linked-pull-card-${w}`);
      await card.getByRole("link", { name: `Solve with AI: ${EXPORT_TITLE}` }).click();
      await page.getByRole("heading", { name: EXPORT_TITLE }).waitFor();
      await page.getByRole("note", { name: "Open pull request for this issue" }).waitFor();
      await page.getByRole("button", { name: "Generate Solution" }).click();
      const dialog = page.getByRole("dialog", { name: "A pull request is already open" });
      await dialog.getByRole("link", { name: `#${ui.issues.pullNumber} by @octocat` }).waitFor();
      await screenshot(page, `linked-pull-confirm-${w}`);
      await dialog.getByRole("button", { name: "Cancel" }).click();
      await dialog.waitFor({ state: "hidden" });
      expect(page.url()).not.toMatch(/[?&]run=/);
    }
  });

  it("keeps an issue whose solution awaits review in the Open tab, badged and linked to the review", async () => {
    await ui.desk.goto("/issues");
    await issueCard(ui.desk, REVIEW_TITLE)
      .getByRole("link", { name: `Solve with AI: ${REVIEW_TITLE}` })
      .click();
    await ui.desk.getByRole("button", { name: "Generate Solution" }).click();
    await ui.desk.getByTestId("solution-result").waitFor({ timeout: 90_000 });
    for (const [page, w] of ui.both()) {
      await page.goto("/issues");
      const openTab = page.getByRole("tab", { name: /^Open/ });
      await openTab.click();
      const card = issueCard(page, REVIEW_TITLE);
      await card.getByText("Awaiting review", { exact: true }).waitFor();
      const review = card.getByRole("link", { name: `Review Solution: ${REVIEW_TITLE}` });
      expect(await review.getAttribute("href")).toMatch(/^\/validations\/[0-9a-f-]{36}$/);
      const all = (await page.request.get("/api/issues").then((r) => r.json())) as {
        issues: Array<{ status: string; awaitingReview: unknown }>;
      };
      const openCount = all.issues.filter(
        (i) => i.awaitingReview || !["solved", "pr_created", "failed", "closed"].includes(i.status),
      ).length;
      expect(await openTab.textContent()).toContain(String(openCount));
      await screenshot(page, `awaiting-review-${w}`);
      await page.getByRole("tab", { name: /^Closed/ }).click();
      expect(await issueCard(page, REVIEW_TITLE).count()).toBe(0);
      await page.goto("/dashboard");
      await page
        .getByRole("listitem")
        .filter({ hasText: REVIEW_TITLE })
        .getByText("Awaiting review", { exact: true })
        .waitFor();
    }
    await ui.phone.goto("/issues");
    await issueCard(ui.phone, REVIEW_TITLE)
      .getByRole("link", { name: `Solve with AI: ${REVIEW_TITLE}` })
      .click();
    await ui.phone.getByRole("note", { name: "Solution awaiting review" }).waitFor();
    await screenshot(ui.phone, "awaiting-review-solve-390");
    await ui.phone.goBack();
    await issueCard(ui.phone, REVIEW_TITLE)
      .getByRole("link", { name: `Review Solution: ${REVIEW_TITLE}` })
      .click();
    await ui.phone.getByRole("heading", { name: "Validation Decision" }).waitFor();
  });

  it("says an issue deleted on GitHub can no longer be solved, on its card and on the solve page", async () => {
    ui.e2e.github.deleteIssue("octocat", "todo-api", ui.issues.spamIssue);
    expect((await ui.e2e.github.webhookDeliveries()).map((d) => d.status)).toEqual([200]);
    for (const [page, w] of ui.both()) {
      await page.goto("/issues");
      await page.getByRole("tab", { name: /^Closed/ }).click();
      const card = issueCard(page, SPAM_TITLE);
      await card.getByTestId("issue-gone").getByText("This issue was deleted on GitHub").waitFor();
      expect(await card.getByRole("link", { name: `Solve with AI: ${SPAM_TITLE}` }).count()).toBe(0);
      // The solve page, reached by its address (a bookmark, the run's link), says so too.
      const listed = (await page.request.get("/api/issues").then((r) => r.json())) as {
        issues: Array<{ _id: string; title: string }>;
      };
      const id = listed.issues.find((i) => i.title === SPAM_TITLE)?._id;
      expect(id).toBeDefined();
      await page.goto(`/issues/${id}/solve`);
      await page.getByRole("heading", { name: SPAM_TITLE }).waitFor();
      await page.getByTestId("issue-gone").getByText("so it cannot be solved").waitFor();
      // A solve would be refused (410): none is offered.
      expect(await page.getByRole("button", { name: "Generate Solution" }).count()).toBe(0);
      await screenshot(page, `issue-gone-solve-${w}`);
      // A run of it a spending cap stopped: the run's view refuses the resume (410 too), so no Resume, one notice.
      await page.goto(`/issues/${id}/solve?run=${await ui.capStoppedRunOf(id ?? "")}`);
      await page.getByText("The last run failed: This run would pass its spending cap").waitFor();
      await page.getByTestId("issue-gone").getByText("so it cannot be solved").waitFor();
      expect(await page.getByTestId("issue-gone").count()).toBe(1);
      expect(await page.getByRole("button", { name: "Resume" }).count()).toBe(0);
      expect(await page.getByRole("button", { name: "Generate Solution" }).count()).toBe(0);
      expect(await seriousA11yViolations(page)).toEqual([]);
      await screenshot(page, `issue-gone-run-${w}`);
      // The notice leads back to the list (on a phone the menu is folded away).
      await page.getByTestId("issue-gone").getByRole("link", { name: "Back to Issues" }).click();
      await page.waitForURL(/\/issues$/);
      await page.getByRole("tab", { name: /^Closed/ }).waitFor();
    }
  });

  it("says an issue whose repository left the user's list can no longer be solved, on its card, the solve page and its solution's review", async () => {
    const title = "Tiles load twice";
    await ui.e2e.github.createRepository("octocat", "atlas");
    ui.e2e.github.addIssues("octocat", "atlas", [
      { title, body: "Each tile is fetched twice on zoom.", user: "hubot" },
    ]);
    await ui.desk.goto("/repositories");
    await ui.desk.getByRole("button", { name: "Sync octocat/atlas" }).click();
    await toast(ui.desk, "Repository synced successfully");
    // Another of its issues has a solution awaiting review, as a solve leaves it.
    const { solutionId } = await ui.seedSolutionOf("octocat", {
      repoFullName: "octocat/atlas",
      issueNumber: 90,
      title: "Tiles flicker on zoom",
      files: [{ filename: "README.md", action: "modify", originalContent: "# atlas\n", content: "# Atlas\n" }],
    });
    // octocat gives the repository away: the next sync drops it from their list.
    await ui.e2e.github.transferRepository("octocat", "atlas", "hubot");
    await ui.desk.goto("/repositories");
    await ui.desk.getByRole("button", { name: "Sync octocat/todo-api" }).waitFor();
    await ui.desk.getByRole("button", { name: "Sync octocat/atlas" }).waitFor({ state: "detached" });
    const listed = (await ui.desk.request.get("/api/issues").then((r) => r.json())) as {
      issues: Array<{ _id: string; title: string }>;
    };
    const id = listed.issues.find((i) => i.title === title)?._id;
    expect(id).toBeDefined();
    for (const [page, w] of ui.both()) {
      // Its card says so, and offers no solve.
      await page.goto("/issues");
      const card = issueCard(page, title);
      await card.getByTestId("repository-access-lost").getByText("so it cannot be solved").waitFor();
      expect(await card.getByRole("link", { name: `Solve with AI: ${title}` }).count()).toBe(0);
      await screenshot(page, `repository-access-lost-card-${w}`);
      await page.goto(`/issues/${id}/solve`);
      await page.getByRole("heading", { name: title }).waitFor();
      const notice = page.getByTestId("repository-access-lost");
      await notice.getByText("You no longer have access to this issue's repository on GitHub").waitFor();
      expect(await notice.getByRole("link", { name: "Repositories" }).getAttribute("href")).toBe("/repositories");
      // A solve would be refused (403): none is offered.
      expect(await page.getByRole("button", { name: "Generate Solution" }).count()).toBe(0);
      expect(await seriousA11yViolations(page)).toEqual([]);
      await screenshot(page, `repository-access-lost-solve-${w}`);
      // Its solution's review says it cannot be approved, and offers neither a refinement nor an approval (both 403).
      await page.goto(`/validations/${solutionId}`);
      await page.getByRole("heading", { name: "Validation Decision" }).waitFor();
      const review = page.getByTestId("repository-access-lost");
      await review.getByText("so its pull request cannot be opened").waitFor();
      expect(await review.getByRole("link", { name: "Repositories" }).getAttribute("href")).toBe("/repositories");
      expect(await page.getByRole("button", { name: "Request Refinement" }).count()).toBe(0);
      expect(await page.getByLabel("What should the AI change?").count()).toBe(0);
      expect(await page.getByRole("button", { name: /Approve/ }).count()).toBe(0);
      // A rejection asks nothing of GitHub: it is still offered.
      await page.getByRole("button", { name: "Reject" }).waitFor();
      expect(await seriousA11yViolations(page)).toEqual([]);
      await screenshot(page, `repository-access-lost-review-${w}`);
    }
  });

  it("keeps a toast from blocking the page's buttons on phones: short, tapped through, closable", async () => {
    for (const [page, w] of ui.both()) {
      await page.goto("/repositories");
      const sync = page.getByRole("button", { name: "Sync octocat/todo-api" });
      await sync.click();
      await toast(page, "Repository synced successfully");
      // Past its entry animation: where it stays while it shows.
      await page.waitForTimeout(600);
      await screenshot(page, `toast-${w}`);
      expect(await toastCoversNoAction(page), `at ${w} px`).toEqual([]);
      expect(await toastBlocksActions(page)).toEqual([]);
      await page.getByRole("button", { name: "Close toast" }).first().click();
      await page.locator("[data-sonner-toast]").first().waitFor({ state: "detached" });
    }
    // A finger resting where the toast shows does not hold it open (the walk saw one stay ~30 s).
    const sync = ui.phone.getByRole("button", { name: "Sync octocat/todo-api" });
    await sync.click();
    const shown = ui.phone.locator("[data-sonner-toast]").first();
    await shown.waitFor();
    const box = await shown.boundingBox();
    await ui.phone.mouse.move((box?.x ?? 0) + (box?.width ?? 0) / 2, (box?.y ?? 0) + (box?.height ?? 0) / 2);
    const start = Date.now();
    await shown.waitFor({ state: "detached", timeout: 10_000 });
    expect(Date.now() - start).toBeLessThan(5_000);
    // The end of a long page scrolls clear of where toasts show.
    await ui.phone.goto("/issues");
    await issueCard(ui.phone, SORT_TITLE).waitFor();
    expect(await roomBelowLastAction(ui.phone)).toBeGreaterThanOrEqual(64);
  });
});
