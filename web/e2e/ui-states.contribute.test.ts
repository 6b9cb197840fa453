import { describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { authorizeRepositories, screenshot, signIn, toast } from "./e2e.harness";
import { EXPORT_TITLE, issueCard, uiStates } from "./ui-states.setup";

// Issue #25: contributing to someone else's repository (fork ready, import then solve, a solve
// that cannot start), each at 1280 and 390 px.
const ui = uiStates("ui-states-contribute", { seedIssues: true, signedIn: true });

describe("contributing to someone else's repository at 1280 and 390 px", () => {
  const preview = async (page: Page, n: number) => {
    await page.goto("/contribute");
    await page.getByLabel("GitHub issue URL").fill(`https://github.com/octocat/todo-api/issues/${n}`);
    await page.getByRole("button", { name: "Preview Issue" }).click();
  };

  it("imports and starts the solve, then says the fork is ready and shows the other pull request", async () => {
    const { page: hubot } = await ui.e2e.newPage({ width: 1280 });
    await signIn(hubot, "hubot");
    await authorizeRepositories(hubot, "hubot");
    await preview(hubot, ui.issues.exportIssue);
    await hubot.getByText("Fork Required.").waitFor();
    await hubot.getByText(`An open pull request already references this issue: #${ui.issues.pullNumber}`).waitFor();
    await hubot.getByLabel("I have read these warnings and want to continue").check();
    await hubot.getByRole("button", { name: "Import & Solve with AI" }).click();
    await hubot.waitForURL(/\/issues\/[^/]+\/solve\?run=/, { timeout: 60_000 });
    await hubot.getByTestId("steps").waitFor();
    await screenshot(hubot, "import-and-solve-1280");

    await ui.sharePhoneSession(hubot);
    for (const [page, w] of [
      [hubot, "1280"],
      [ui.phone, "390"],
    ] as const) {
      await page.goto("/issues");
      const card = issueCard(page, EXPORT_TITLE);
      await card.getByRole("link", { name: `#${ui.issues.pullNumber} by @octocat` }).waitFor();
      await preview(page, ui.issues.sortIssue);
      await page.getByText("Fork ready.").waitFor();
      expect(await page.getByText("Fork Required.").count()).toBe(0);
      await page.getByText("Your fork hubot/todo-api is used").waitFor();
      await screenshot(page, `fork-ready-${w}`);
    }
    await ui.phone.getByRole("button", { name: "Import & Solve with AI" }).click();
    await ui.phone.waitForURL(/\/issues\/[^/]+\/solve\?run=/, { timeout: 60_000 });
    await ui.phone.getByTestId("steps").waitFor();
    await screenshot(ui.phone, "import-and-solve-390");
  });
});

describe("Import & Solve when the solve cannot start, at 1280 and 390 px", () => {
  it("keeps the import and says why the solve did not start", async () => {
    const models = (await ui.desk.request.get("/api/ai/models").then((r) => r.json())) as {
      allModels: Array<{ id: string; allowed: boolean }>;
    };
    const premium = models.allModels.find((m) => !m.allowed)?.id ?? "";
    expect(premium).not.toBe("");
    await ui.sharePhoneSession();
    for (const [page, w, n] of [
      [ui.desk, "1280", 3],
      [ui.phone, "390", 4],
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

describe("Import & Solve of an issue imported meanwhile, at 1280 and 390 px", () => {
  it("says the issue is already in the dashboard and opens it without starting another solve", async () => {
    await ui.sharePhoneSession();
    for (const [page, w, n] of [
      [ui.desk, "1280", 2],
      [ui.phone, "390", 5],
    ] as const) {
      // Two tabs preview the same issue; the preview of each was loaded before either imported it.
      const other = await page.context().newPage();
      for (const tab of [page, other]) {
        await tab.goto("/contribute");
        await tab.getByLabel("GitHub issue URL").fill(`https://github.com/hubot/markdown-lint/issues/${n}`);
        await tab.getByRole("button", { name: "Preview Issue" }).click();
        await tab.getByRole("button", { name: "Import & Solve with AI" }).waitFor();
      }
      await other.getByRole("button", { name: "Import & Solve with AI" }).click();
      await other.waitForURL(/\/issues\/[^/]+\/solve\?run=/, { timeout: 60_000 });
      const imported = /\/issues\/([^/?]+)\/solve/.exec(other.url())?.[1];
      await other.close();
      expect(imported).toBeDefined();
      // The API answers alreadyImported: the page says so and opens the same issue, starting nothing.
      await page.getByRole("button", { name: "Import & Solve with AI" }).click();
      await toast(page, "This issue is already in your dashboard!");
      await page.waitForURL(new RegExp(`/issues/${imported}/solve$`));
      await page.getByRole("heading", { level: 1 }).waitFor();
      const toasts = page.locator("[data-sonner-toast]");
      expect(await toasts.filter({ hasText: "Issue imported successfully!" }).count()).toBe(0);
      // Past the toast's entry animation: where it stays while it shows.
      await page.waitForTimeout(600);
      await screenshot(page, `import-already-imported-${w}`);
    }
  });
});
