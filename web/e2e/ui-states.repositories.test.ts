import { describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { backtests, createDb } from "@fixloop/db";
import { screenshot, seriousA11yViolations, toast } from "./e2e.harness";
import { uiStates } from "./ui-states.setup";

// The repositories page for an organisation's repositories the user can only read, at 1280 and 390 px.
const ui = uiStates("ui-states-repositories", { signedIn: true });

describe("an organisation's repositories the user can only read, at 1280 and 390 px", () => {
  const card = (page: Page, fullName: string) =>
    page.getByRole("listitem").filter({ has: page.getByText(fullName, { exact: true }) });
  it("shows them read-only with the import by URL instead of Fetch Issues and Sync", async () => {
    const gh = ui.e2e.github;
    gh.createOrganization("acme", { defaultPermission: "read" });
    // A long name: the badge beside a long title at 390 px.
    await gh.createRepository("acme", "engineering-handbook-and-onboarding", { description: "How the team works" });
    await gh.createRepository("acme", "storefront-with-a-rather-long-name");
    gh.addOrgMember("acme", "octocat");
    gh.createTeam("acme", "web", ["octocat"]);
    gh.addTeamRepository("acme", "web", "storefront-with-a-rather-long-name", "push");
    await ui.sharePhoneSession();
    await ui.desk.goto("/repositories");
    await ui.desk.getByRole("button", { name: "Refresh" }).click();
    await card(ui.desk, "acme/engineering-handbook-and-onboarding").waitFor();
    for (const [page, w] of ui.both()) {
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
      const href = new URL((await importLink.getAttribute("href")) ?? "", ui.e2e.stack.url);
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
    for (const [page, w] of ui.both()) {
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
    await ui.desk.goto("/repositories");
    const readOnly = card(ui.desk, "acme/engineering-handbook-and-onboarding");
    await readOnly.getByText("Test settings", { exact: true }).click();
    await expect.poll(() => readOnly.getByLabel("Test command").inputValue()).toBe("npm run test:390");
  });

  it("says under a backtest's solve on a read-only repository that its setup ran offline for want of network", async () => {
    const full = "acme/engineering-handbook-and-onboarding";
    // A finished backtest with one solve whose repository's .fixloop.yml asked for network during
    // setup: on a repository the user can only read, nobody granted it (as the backtest worker records).
    const db = createDb(ui.e2e.stack.env.DATABASE_URL ?? "", { max: 1 });
    try {
      const repo = await db
        .selectFrom("repositories as r")
        .innerJoin("github_repositories as g", "g.github_id", "r.github_id")
        .innerJoin("users as u", "u.id", "r.user_id")
        .select(["r.id", "r.user_id"])
        .where("u.username", "=", "octocat")
        .where("g.full_name", "=", full)
        .executeTakeFirstOrThrow();
      const b = await backtests.start(db, { repositoryId: repo.id, userId: repo.user_id, requested: 1, solve: true });
      expect(b).toBeDefined();
      const id = b?.id ?? "";
      expect(await backtests.begin(db, id)).toBe(true);
      const solve = {
        runId: null,
        verified: false,
        reason: "still_failing" as const,
        detail: 'Still failing with the solve\'s patch: "links resolve"',
        costUsd: 0,
      };
      const issue = {
        issueNumber: 12,
        title: "Broken links in the onboarding guide",
        pullNumber: 13,
        baseSha: "0".repeat(40),
        fixFiles: ["docs/onboarding.md"],
        testFiles: ["test/links.test.js"],
        ranked: ["docs/onboarding.md"],
        rank: 1,
        error: null,
      };
      const progressed = await backtests.progress(db, id, {
        found: 2,
        checked: 2,
        foundAt1: 2,
        foundAt5: 2,
        issues: [
          { ...issue, solve: { ...solve, networkNotGranted: true } },
          {
            ...issue,
            issueNumber: 14,
            pullNumber: 15,
            title: "Typo in the glossary",
            solve: { ...solve, networkNotGranted: false },
          },
        ],
      });
      expect(progressed).toBe(true);
      await backtests.finish(db, id, { error: null });
    } finally {
      await db.destroy();
    }
    const offline =
      "This repository's setup wants network: its .fixloop.yml asks for network during setup. You do not own this repository, so this solve's setup ran offline.";
    for (const [page, w] of ui.both()) {
      await page.goto("/repositories");
      const trust = card(page, full).getByRole("region", { name: "Trust card" });
      await trust.getByText("Issues checked").click();
      const said = trust.getByTestId("trust-solve-network");
      await said.waitFor();
      expect(await said.allTextContents()).toEqual([offline]);
      const first = trust.getByRole("listitem").filter({ hasText: "#12 Broken links" });
      expect(await first.getByTestId("trust-solve-network").count()).toBe(1);
      expect(await page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth)).toBe(false);
      expect(await seriousA11yViolations(page), `trust card at ${w}`).toEqual([]);
      await trust.scrollIntoViewIfNeeded();
      await screenshot(page, `trust-card-solve-offline-${w}`);
    }
  });

  it("opens the import page on a read-only repository's issues; a hostile ?url= is neither rendered nor followed", async () => {
    const [n = 0] = ui.e2e.github.addIssues("acme", "engineering-handbook-and-onboarding", [
      { title: "The onboarding checklist misses the VPN step", user: "hubot" },
    ]);
    const issues = "https://github.com/acme/engineering-handbook-and-onboarding/issues/";
    for (const [page, w] of ui.both()) {
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
      await ui.desk.goto(`/contribute?url=${encodeURIComponent(value)}`);
      await ui.desk.getByRole("heading", { name: "Contribute to Open Source" }).waitFor();
      expect(await ui.desk.getByLabel("GitHub issue URL").inputValue(), value).toBe(kept);
      expect(await ui.desk.locator("main img").count()).toBe(0);
      expect(await ui.desk.evaluate(() => (window as unknown as { __pwned?: number }).__pwned)).toBeUndefined();
      expect(new URL(ui.desk.url()).origin).toBe(new URL(ui.e2e.stack.url).origin);
      expect(new URL(ui.desk.url()).pathname).toBe("/contribute");
    }
  });

  it("keeps the server's reason under the spec's toast when a fetch is refused, and then shows the repository read-only", async () => {
    const gh = ui.e2e.github;
    for (const w of ["1280", "390"]) {
      await gh.createRepository("acme", `status-${w}`);
      gh.addTeamRepository("acme", "web", `status-${w}`, "push");
    }
    await ui.sharePhoneSession();
    for (const [page, w] of ui.both()) {
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
