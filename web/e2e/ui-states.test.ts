import { execFileSync } from "node:child_process";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import {
  authorizeRepositories,
  screenshot,
  seriousA11yViolations,
  signIn,
  signInWithTodoApi,
  startE2E,
  toast,
  type E2E,
} from "./e2e.harness";
import {
  expectFreeToKeepPro,
  payForPro,
  roomBelowLastAction,
  toastBlocksActions,
  toastCoversNoAction,
} from "./ui-states.helpers";

// Issue #25: states a user must see (awaiting review, someone's open pull request, fork ready, import
// then solve, downgrade confirmation, phone toasts), each at 1280 and 390 px.
let e2e: E2E;
let desk: Page;
let phone: Page;
const EXPORT_TITLE = "CSV export drops the due date";
const SORT_TITLE = "Sorting ignores the priority";
const REVIEW_TITLE = "Whitespace-only titles are accepted";
const SPAM_TITLE = "Win a free crypto wallet";
let exportIssue = 0;
let sortIssue = 0;
let spamIssue = 0;
let pullNumber = 0;

beforeAll(async () => {
  e2e = await startE2E("ui-states");
  ({ page: desk } = await e2e.newPage({ width: 1280 }));
  ({ page: phone } = await e2e.newPage({ width: 390 }));
  [exportIssue = 0, sortIssue = 0] = e2e.github.addIssues("octocat", "todo-api", [
    { title: EXPORT_TITLE, body: "The `due` field is missing from `GET /todos.csv`.", user: "hubot" },
    { title: SORT_TITLE, body: "`GET /todos?sort=priority` returns them by creation date.", user: "hubot" },
  ]);
  [spamIssue = 0] = e2e.github.addIssues("octocat", "todo-api", [
    { title: SPAM_TITLE, body: "Click here.", user: "hubot" },
  ]);
  pullNumber = await openPullFromBranch(`Fixes #${exportIssue}: keep the due date in the CSV export`);
});
afterAll(async () => {
  await e2e?.stop();
});

/** octocat pushes a branch and opens a pull request on GitHub (the stand-in) that references the export issue. */
async function openPullFromBranch(body: string): Promise<number> {
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

async function sharePhoneSession(from: Page = desk) {
  await phone.context().clearCookies();
  await phone.context().addCookies(await from.context().cookies());
}

const both = () =>
  [
    [desk, "1280"],
    [phone, "390"],
  ] as const;

const issueCard = (page: Page, title: string) =>
  page.getByRole("listitem").filter({ has: page.getByRole("heading", { name: title, exact: true }) });

describe("issue states at 1280 and 390 px", () => {
  it("says an open pull request already addresses an issue, on its card and before the solve", async () => {
    await signInWithTodoApi(desk);
    await sharePhoneSession();
    for (const [page, w] of both()) {
      await page.goto("/issues");
      const card = issueCard(page, EXPORT_TITLE);
      await card.getByText("An open pull request already addresses this issue:").waitFor();
      const link = card.getByRole("link", { name: `#${pullNumber} by @octocat` });
      expect(await link.getAttribute("href")).toMatch(new RegExp(`/octocat/todo-api/pull/${pullNumber}$`));
      await screenshot(page, `linked-pull-card-${w}`);
      await card.getByRole("link", { name: `Solve with AI: ${EXPORT_TITLE}` }).click();
      await page.getByRole("heading", { name: EXPORT_TITLE }).waitFor();
      await page.getByRole("note", { name: "Open pull request for this issue" }).waitFor();
      await page.getByRole("button", { name: "Generate Solution" }).click();
      const dialog = page.getByRole("dialog", { name: "A pull request is already open" });
      await dialog.getByRole("link", { name: `#${pullNumber} by @octocat` }).waitFor();
      await screenshot(page, `linked-pull-confirm-${w}`);
      await dialog.getByRole("button", { name: "Cancel" }).click();
      await dialog.waitFor({ state: "hidden" });
      expect(page.url()).not.toMatch(/[?&]run=/);
    }
  });

  it("keeps an issue whose solution awaits review in the Open tab, badged and linked to the review", async () => {
    await desk.goto("/issues");
    await issueCard(desk, REVIEW_TITLE)
      .getByRole("link", { name: `Solve with AI: ${REVIEW_TITLE}` })
      .click();
    await desk.getByRole("button", { name: "Generate Solution" }).click();
    await desk.getByTestId("solution-result").waitFor({ timeout: 90_000 });
    for (const [page, w] of both()) {
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
    await phone.goto("/issues");
    await issueCard(phone, REVIEW_TITLE)
      .getByRole("link", { name: `Solve with AI: ${REVIEW_TITLE}` })
      .click();
    await phone.getByRole("note", { name: "Solution awaiting review" }).waitFor();
    await screenshot(phone, "awaiting-review-solve-390");
    await phone.goBack();
    await issueCard(phone, REVIEW_TITLE)
      .getByRole("link", { name: `Review Solution: ${REVIEW_TITLE}` })
      .click();
    await phone.getByRole("heading", { name: "Validation Decision" }).waitFor();
  });

  it("says an issue deleted on GitHub can no longer be solved, on its card and on the solve page", async () => {
    e2e.github.deleteIssue("octocat", "todo-api", spamIssue);
    expect((await e2e.github.webhookDeliveries()).map((d) => d.status)).toEqual([200]);
    for (const [page, w] of both()) {
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
      await page.getByTestId("issue-gone").getByText("it can no longer be solved").waitFor();
      // A solve would be refused (410): none is offered.
      expect(await page.getByRole("button", { name: "Generate Solution" }).count()).toBe(0);
      await screenshot(page, `issue-gone-solve-${w}`);
    }
  });

  it("keeps a toast from blocking the page's buttons on phones: short, tapped through, closable", async () => {
    for (const [page, w] of both()) {
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
    const sync = phone.getByRole("button", { name: "Sync octocat/todo-api" });
    await sync.click();
    const shown = phone.locator("[data-sonner-toast]").first();
    await shown.waitFor();
    const box = await shown.boundingBox();
    await phone.mouse.move((box?.x ?? 0) + (box?.width ?? 0) / 2, (box?.y ?? 0) + (box?.height ?? 0) / 2);
    const start = Date.now();
    await shown.waitFor({ state: "detached", timeout: 10_000 });
    expect(Date.now() - start).toBeLessThan(5_000);
    // The end of a long page scrolls clear of where toasts show.
    await phone.goto("/issues");
    await issueCard(phone, SORT_TITLE).waitFor();
    expect(await roomBelowLastAction(phone)).toBeGreaterThanOrEqual(64);
  });
});

describe("contributing to someone else's repository at 1280 and 390 px", () => {
  const preview = async (page: Page, n: number) => {
    await page.goto("/contribute");
    await page.getByLabel("GitHub issue URL").fill(`https://github.com/octocat/todo-api/issues/${n}`);
    await page.getByRole("button", { name: "Preview Issue" }).click();
  };

  it("imports and starts the solve, then says the fork is ready and shows the other pull request", async () => {
    const { page: hubot } = await e2e.newPage({ width: 1280 });
    await signIn(hubot, "hubot");
    await authorizeRepositories(hubot, "hubot");
    await preview(hubot, exportIssue);
    await hubot.getByText("Fork Required.").waitFor();
    await hubot.getByText(`An open pull request already references this issue: #${pullNumber}`).waitFor();
    await hubot.getByLabel("I have read these warnings and want to continue").check();
    await hubot.getByRole("button", { name: "Import & Solve with AI" }).click();
    await hubot.waitForURL(/\/issues\/[^/]+\/solve\?run=/, { timeout: 60_000 });
    await hubot.getByTestId("steps").waitFor();
    await screenshot(hubot, "import-and-solve-1280");

    await sharePhoneSession(hubot);
    for (const [page, w] of [
      [hubot, "1280"],
      [phone, "390"],
    ] as const) {
      await page.goto("/issues");
      const card = issueCard(page, EXPORT_TITLE);
      await card.getByRole("link", { name: `#${pullNumber} by @octocat` }).waitFor();
      await preview(page, sortIssue);
      await page.getByText("Fork ready.").waitFor();
      expect(await page.getByText("Fork Required.").count()).toBe(0);
      await page.getByText("Your fork hubot/todo-api is used").waitFor();
      await screenshot(page, `fork-ready-${w}`);
    }
    await phone.getByRole("button", { name: "Import & Solve with AI" }).click();
    await phone.waitForURL(/\/issues\/[^/]+\/solve\?run=/, { timeout: 60_000 });
    await phone.getByTestId("steps").waitFor();
    await screenshot(phone, "import-and-solve-390");
  });
});

describe("Import & Solve when the solve cannot start, at 1280 and 390 px", () => {
  it("keeps the import and says why the solve did not start", async () => {
    const models = (await desk.request.get("/api/ai/models").then((r) => r.json())) as {
      allModels: Array<{ id: string; allowed: boolean }>;
    };
    const premium = models.allModels.find((m) => !m.allowed)?.id ?? "";
    expect(premium).not.toBe("");
    await sharePhoneSession();
    for (const [page, w, n] of [
      [desk, "1280", 3],
      [phone, "390", 4],
    ] as const) {
      // A default model the Free plan does not include: the import succeeds, the solve is refused.
      await page.evaluate((id) => localStorage.setItem("default-model", id), premium);
      await page.goto("/contribute");
      await page.getByLabel("GitHub issue URL").fill(`https://github.com/hubot/markdown-lint/issues/${n}`);
      await page.getByRole("button", { name: "Preview Issue" }).click();
      const ack = page.getByLabel("I have read these warnings and want to continue");
      if (await ack.isVisible()) await ack.check();
      await page.getByRole("button", { name: "Import & Solve with AI" }).click();
      await page.getByRole("dialog", { name: "Premium subscription required" }).waitFor({ timeout: 60_000 });
      await screenshot(page, `import-solve-refused-${w}`);
      expect(page.url()).toMatch(/\/issues\/[^/?]+\/solve$/);
      await page.getByRole("dialog").getByRole("button", { name: "Close", exact: true }).click();
      await page.getByRole("button", { name: "Generate Solution" }).waitFor();
      await page.evaluate(() => localStorage.removeItem("default-model"));
    }
  });
});

describe("leaving a paid plan at 1280 and 390 px", () => {
  it("asks before Free with what is lost and when; Keep Pro changes nothing", async () => {
    const { page: buyer } = await e2e.newPage({ width: 1280 });
    await signIn(buyer, "monalisa");
    await payForPro(buyer);
    await sharePhoneSession(buyer);
    for (const [page, w] of [
      [buyer, "1280"],
      [phone, "390"],
    ] as const) {
      await expectFreeToKeepPro(page, w);
    }
  });
});

describe("an organisation's repositories the user can only read, at 1280 and 390 px", () => {
  const card = (page: Page, fullName: string) =>
    page.getByRole("listitem").filter({ has: page.getByText(fullName, { exact: true }) });
  it("shows them read-only with the import by URL instead of Fetch Issues and Sync", async () => {
    const gh = e2e.github;
    gh.createOrganization("acme", { defaultPermission: "read" });
    // A long name: the badge beside a long title at 390 px.
    await gh.createRepository("acme", "engineering-handbook-and-onboarding", { description: "How the team works" });
    await gh.createRepository("acme", "storefront-with-a-rather-long-name");
    gh.addOrgMember("acme", "octocat");
    gh.createTeam("acme", "web", ["octocat"]);
    gh.addTeamRepository("acme", "web", "storefront-with-a-rather-long-name", "push");
    await sharePhoneSession();
    await desk.goto("/repositories");
    await desk.getByRole("button", { name: "Refresh" }).click();
    await card(desk, "acme/engineering-handbook-and-onboarding").waitFor();
    for (const [page, w] of both()) {
      await page.goto("/repositories");
      const readOnly = card(page, "acme/engineering-handbook-and-onboarding");
      const badge = readOnly.getByText("Read-only", { exact: true });
      await badge.waitFor();
      expect(await badge.getAttribute("title")).toBe(
        "You can read this repository but not push to it: import its issues by URL to solve them in a fork.",
      );
      const importLink = readOnly.getByRole("link", {
        name: "Import issue by URL for acme/engineering-handbook-and-onboarding",
      });
      // The import page opens on this repository's issues (its ?url=), waiting for the issue's number.
      const href = new URL((await importLink.getAttribute("href")) ?? "", e2e.stack.url);
      expect([href.pathname, href.searchParams.get("url")]).toEqual([
        "/contribute",
        "https://github.com/acme/engineering-handbook-and-onboarding/issues/",
      ]);
      // Refused by the server (403 github.not_your_repository): not offered.
      expect(
        await page.getByRole("button", { name: "Fetch issues of acme/engineering-handbook-and-onboarding" }).count(),
      ).toBe(0);
      expect(await page.getByRole("button", { name: "Sync acme/engineering-handbook-and-onboarding" }).count()).toBe(0);
      expect(await readOnly.getByText("Solve on label").count()).toBe(0);
      // One the user may push to is unchanged.
      const pushable = card(page, "acme/storefront-with-a-rather-long-name");
      await pushable.getByRole("button", { name: "Fetch issues of acme/storefront-with-a-rather-long-name" }).waitFor();
      await pushable.getByRole("button", { name: "Sync acme/storefront-with-a-rather-long-name" }).waitFor();
      expect(await pushable.getByText("Read-only", { exact: true }).count()).toBe(0);
      expect(await page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth)).toBe(false);
      expect(await seriousA11yViolations(page), `repositories at ${w}`).toEqual([]);
      await readOnly.scrollIntoViewIfNeeded();
      await screenshot(page, `repositories-read-only-${w}`);
      await importLink.click();
      await page.getByRole("heading", { name: "Contribute to Open Source" }).waitFor();
    }
  });

  it("keeps the backtest and the user's own test settings on a read-only repository, saying whose settings they are", async () => {
    const note =
      "Yours only: used by your backtests here and your solves of issues you import from this repository, never by its owners' runs.";
    for (const [page, w] of both()) {
      await page.goto("/repositories");
      const readOnly = card(page, "acme/engineering-handbook-and-onboarding");
      // The backtest reads the repository and spends the user's own quota: offered as on any repository.
      const trust = readOnly.getByRole("group", { name: "Trust card" });
      await trust.getByText("How would Fixloop have done here?").click();
      await trust.getByRole("button", { name: "Run backtest of acme/engineering-handbook-and-onboarding" }).waitFor();
      await readOnly.getByText("Test settings", { exact: true }).click();
      await readOnly.getByText(note).waitFor();
      // Checked before saving: the saved toast reads as low contrast to axe while it fades in.
      expect(await seriousA11yViolations(page), `repositories at ${w}`).toEqual([]);
      const command = readOnly.getByLabel("Test command");
      await command.fill(`npm run test:${w}`);
      await readOnly
        .getByRole("button", { name: "Save test settings of acme/engineering-handbook-and-onboarding" })
        .click();
      await toast(page, "Test settings saved");
      // A repository the user may push to says nothing of the kind.
      const pushable = card(page, "acme/storefront-with-a-rather-long-name");
      await pushable.getByText("Test settings", { exact: true }).click();
      await pushable.getByLabel("Test command").waitFor();
      expect(await pushable.getByText(note).count()).toBe(0);
      expect(await page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth)).toBe(false);
      await readOnly.scrollIntoViewIfNeeded();
      await page.waitForTimeout(600);
      await screenshot(page, `repositories-read-only-settings-${w}`);
    }
    // Saved for this user: read back after a reload.
    await desk.goto("/repositories");
    const readOnly = card(desk, "acme/engineering-handbook-and-onboarding");
    await readOnly.getByText("Test settings", { exact: true }).click();
    await expect.poll(() => readOnly.getByLabel("Test command").inputValue()).toBe("npm run test:390");
  });

  it("opens the import page on a read-only repository's issues; a hostile ?url= is neither rendered nor followed", async () => {
    const [n = 0] = e2e.github.addIssues("acme", "engineering-handbook-and-onboarding", [
      { title: "The onboarding checklist misses the VPN step", user: "hubot" },
    ]);
    const issues = "https://github.com/acme/engineering-handbook-and-onboarding/issues/";
    for (const [page, w] of both()) {
      await page.goto("/repositories");
      await card(page, "acme/engineering-handbook-and-onboarding")
        .getByRole("link", { name: "Import issue by URL for acme/engineering-handbook-and-onboarding" })
        .click();
      await page.getByRole("heading", { name: "Contribute to Open Source" }).waitFor();
      const input = page.getByLabel("GitHub issue URL");
      expect(await input.inputValue()).toBe(issues);
      expect(await page.evaluate(() => document.activeElement?.id)).toBe("contribute-url");
      await page.getByText("Add the issue's number after /issues/, or paste the issue's URL.").waitFor();
      expect(await page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth)).toBe(false);
      expect(await seriousA11yViolations(page), `contribute at ${w}`).toEqual([]);
      await screenshot(page, `contribute-prefilled-${w}`);
      // The caret waits at the end: typing the number completes the URL.
      await page.keyboard.type(String(n));
      expect(await input.inputValue()).toBe(`${issues}${n}`);
      await page.getByRole("button", { name: "Preview Issue" }).click();
      await page.getByText("The onboarding checklist misses the VPN step").first().waitFor();
      await screenshot(page, `contribute-prefilled-preview-${w}`);
    }
    // Anything that is no GitHub reference is dropped; a reference carrying markup fills the input as text only.
    const markup = 'https://github.com/acme/x/issues/1#"><img/src=x/onerror=window.__pwned=1>';
    for (const [value, kept] of [
      ["javascript:window.__pwned=1", ""],
      ["https://evil.example/acme/x/issues/1", ""],
      ['"><img src=x onerror="window.__pwned=1">', ""],
      [markup, markup],
    ] as const) {
      await desk.goto(`/contribute?url=${encodeURIComponent(value)}`);
      await desk.getByRole("heading", { name: "Contribute to Open Source" }).waitFor();
      expect(await desk.getByLabel("GitHub issue URL").inputValue(), value).toBe(kept);
      expect(await desk.locator("main img").count()).toBe(0);
      expect(await desk.evaluate(() => (window as unknown as { __pwned?: number }).__pwned)).toBeUndefined();
      expect(new URL(desk.url()).origin).toBe(new URL(e2e.stack.url).origin);
      expect(new URL(desk.url()).pathname).toBe("/contribute");
    }
  });

  it("keeps the server's reason under the spec's toast when a fetch is refused, and then shows the repository read-only", async () => {
    const gh = e2e.github;
    for (const w of ["1280", "390"]) {
      await gh.createRepository("acme", `status-${w}`);
      gh.addTeamRepository("acme", "web", `status-${w}`, "push");
    }
    await sharePhoneSession();
    for (const [page, w] of both()) {
      await page.goto("/repositories");
      const status = page.getByRole("listitem").filter({ has: page.getByText(`acme/status-${w}`, { exact: true }) });
      const fetchIssues = status.getByRole("button", { name: `Fetch issues of acme/status-${w}` });
      await fetchIssues.waitFor();
      // Push access taken away after the list was read: the server refuses (403 github.not_your_repository).
      gh.addTeamRepository("acme", "web", `status-${w}`, "pull");
      await fetchIssues.click();
      const refused = page.locator("[data-sonner-toast]").filter({ hasText: "Failed to fetch issues" });
      await refused.waitFor();
      await refused
        .getByText(`acme/status-${w} is not one of your repositories; import its issues by URL instead`)
        .waitFor();
      await status.getByText("Read-only", { exact: true }).waitFor();
      expect(await fetchIssues.count()).toBe(0);
      await status.getByRole("link", { name: `Import issue by URL for acme/status-${w}` }).waitFor();
      // Past the toast's entry animation.
      await page.waitForTimeout(600);
      await screenshot(page, `repositories-refused-${w}`);
    }
  });
});

describe("the pull requests page's sync at 1280 and 390 px", () => {
  it("keeps its own toast text on a failed sync and shows the server's reason under it", async () => {
    await desk.goto("/issues");
    await issueCard(desk, REVIEW_TITLE)
      .getByRole("link", { name: `Review Solution: ${REVIEW_TITLE}` })
      .click();
    await desk.getByRole("button", { name: "Approve & Create PR" }).click();
    await toast(desk, "PR Created Successfully!");
    await desk.waitForURL(/\/pull-requests$/, { timeout: 10_000 });
    await sharePhoneSession();
    for (const [page, w] of both()) {
      await page.goto("/pull-requests");
      await page.getByText("octocat/todo-api", { exact: false }).first().waitFor();
      // GitHub fails every read of the pull request (the client's retries included).
      e2e.github.failNext({ path: /\/todo-api\/pulls\/\d+/, status: 500, kind: "primary", times: 3 });
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
