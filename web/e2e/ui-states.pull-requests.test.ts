import { execFileSync } from "node:child_process";
import { beforeAll, describe, expect, it } from "vitest";
import { screenshot, seriousA11yViolations, solveAndReview, toast } from "./e2e.harness";
import { issueCard, REVIEW_TITLE, uiStates } from "./ui-states.setup";

// The pull requests page's sync failing, and a pull request whose repository left the user's
// list, at 1280 and 390 px.
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
  it("does not offer Address review once the issue's repository left the user's list, and says why", async () => {
    const github = ui.e2e.github;
    await github.createRepository("octocat", "atlas");
    await ui.desk.goto("/repositories");
    await ui.desk.getByRole("button", { name: "Sync octocat/atlas" }).click();
    await toast(ui.desk, "Repository synced successfully");
    // A solution of one of its issues, approved into a pull request on GitHub.
    const title = "Tiles flicker on zoom";
    const { solutionId } = await ui.seedSolutionOf("octocat", {
      repoFullName: "octocat/atlas",
      issueNumber: 90,
      title,
      files: [{ filename: "README.md", action: "modify", originalContent: "# atlas\n", content: "# Atlas\n" }],
    });
    await ui.desk.goto(`/validations/${solutionId}`);
    await ui.desk.getByRole("button", { name: "Approve & Create PR" }).click();
    await toast(ui.desk, "PR Created Successfully!");
    const pull = github.listPulls("octocat", "atlas").find((p) => p.state === "open");
    expect(pull).toBeDefined();
    // A reviewer asks for a change: an open review comment, which "Address review" would refine from.
    const res = await fetch(
      `${ui.e2e.stack.sandboxes.github?.url}/repos/octocat/atlas/pulls/${pull?.number}/comments`,
      {
        method: "POST",
        headers: {
          authorization: `token ${github.issueToken("hubot", ["public_repo"])}`,
          "content-type": "application/json",
        },
        body: JSON.stringify({
          body: "Keep the name lowercase.",
          path: "README.md",
          line: 1,
          commit_id: pull?.head.sha,
        }),
      },
    );
    expect(res.status).toBe(201);
    expect((await github.webhookDeliveries()).every((d) => d.status === 200)).toBe(true);
    // octocat gives the repository away: the next listing drops it from their list.
    await github.transferRepository("octocat", "atlas", "hubot");
    await ui.desk.goto("/repositories");
    await ui.desk.getByRole("button", { name: "Sync octocat/todo-api" }).waitFor();
    await ui.desk.getByRole("button", { name: "Sync octocat/atlas" }).waitFor({ state: "detached" });
    for (const [page, w] of ui.both()) {
      await page.goto("/pull-requests");
      const card = page.getByRole("listitem").filter({ has: page.getByRole("heading", { name: new RegExp(title) }) });
      await card.getByText("Keep the name lowercase.").waitFor();
      const notice = card.getByTestId("repository-access-lost");
      await notice.getByText("so its solution cannot be refined to address this review").waitFor();
      expect(await notice.getByRole("link", { name: "Repositories" }).getAttribute("href")).toBe("/repositories");
      // The refinement would be refused (403): neither way of asking for it is offered.
      expect(await card.getByRole("button", { name: /Address/ }).count()).toBe(0);
      await card.getByRole("link", { name: "View on GitHub" }).waitFor();
      expect(await seriousA11yViolations(page)).toEqual([]);
      await screenshot(page, `pull-requests-repository-access-lost-${w}`);
    }
  });
  it("does not offer the push of a revision that addressed the review once the repository left the list", async () => {
    const github = ui.e2e.github;
    const pull = github.listPulls("octocat", "todo-api").find((p) => p.state === "open" && /Whitespace/.test(p.title));
    expect(pull).toBeDefined();
    const gitDir = github.gitDir("octocat", "todo-api");
    const file =
      execFileSync("git", ["--git-dir", gitDir, "diff", "--name-only", `${pull?.base.sha}..${pull?.head.sha}`], {
        encoding: "utf8",
      })
        .trim()
        .split("\n")[0] ?? "";
    const res = await fetch(
      `${ui.e2e.stack.sandboxes.github?.url}/repos/octocat/todo-api/pulls/${pull?.number}/comments`,
      {
        method: "POST",
        headers: {
          authorization: `token ${github.issueToken("hubot", ["public_repo"])}`,
          "content-type": "application/json",
        },
        body: JSON.stringify({
          body: "Say why spaces count as empty.",
          path: file,
          line: 1,
          commit_id: pull?.head.sha,
        }),
      },
    );
    expect(res.status).toBe(201);
    await github.webhookDeliveries();
    // The review is addressed while the repository is listed: a revision waits to be pushed.
    await ui.desk.goto("/pull-requests");
    await ui.desk.getByRole("button", { name: `Address the review comment on ${file}:1` }).click();
    await ui.desk.waitForURL(/\/validations\/[0-9a-f-]+$/, { timeout: 90_000 });
    const review = new URL(ui.desk.url()).pathname;
    await ui.desk.getByRole("button", { name: /^Approve and push revision \d+$/ }).waitFor();
    // octocat gives the repository away: the next listing drops it from their list.
    await github.transferRepository("octocat", "todo-api", "hubot");
    await ui.desk.goto("/repositories");
    // The listing's sync drops it: the review's own answer says so once the sync is through (the
    // button is also absent while the page loads, so its absence alone does not say the sync ran).
    const accessLost = async () =>
      (
        (await (await ui.desk.request.get(`/api${review}`)).json()) as {
          solution: { issueId: { actions: { push: { allowed: boolean } } } };
        }
      ).solution.issueId.actions.push.allowed === false;
    await expect.poll(accessLost, { timeout: 30_000 }).toBe(true);
    for (const [page, w] of ui.both()) {
      await page.goto(review);
      await page.getByRole("heading", { name: `Push to pull request #${pull?.number}` }).waitFor();
      const notice = page.getByTestId("repository-access-lost").filter({ hasText: "pushed" });
      await notice.getByText("so no revision can be pushed to its pull request").waitFor();
      // The push would be refused (403): it is not offered.
      expect(await page.getByRole("button", { name: /Approve and push/ }).count()).toBe(0);
      expect(await page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth)).toBe(false);
      expect(await seriousA11yViolations(page)).toEqual([]);
      await screenshot(page, `push-revision-repository-access-lost-${w}`);
    }
  });
});
