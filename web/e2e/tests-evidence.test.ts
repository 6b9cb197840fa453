import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { authorizeRepositories, screenshot, seriousA11yViolations, signIn, startE2E, toast, type E2E } from "./e2e.harness";

let e2e: E2E;
let page: Page;

beforeAll(async () => {
  e2e = await startE2E("tests-evidence");
  ({ page } = await e2e.newPage());
  await signIn(page, "hubot");
  await authorizeRepositories(page, "hubot");
  await page.getByRole("button", { name: "Sync hubot/markdown-lint" }).click();
  await toast(page, "Repository synced successfully");
  await page.getByRole("button", { name: "Fetch issues of hubot/markdown-lint" }).click();
  await toast(page, /^Fetched \d+ issues$/);
});
afterAll(async () => {
  await e2e?.stop();
});

async function startSolve(title: string) {
  await page.goto("/issues");
  await page.getByRole("link", { name: `Solve with AI: ${title}` }).click();
  await page.getByRole("heading", { name: title }).waitFor();
  await page.getByRole("button", { name: "Generate Solution" }).click();
  await page.waitForURL(/[?&]run=/);
}

async function review() {
  await page.getByTestId("solution-result").waitFor({ timeout: 120_000 });
  await page.getByRole("link", { name: "Review & Validate" }).click();
  await page.getByTestId("tests-panel").waitFor();
}

const phase = (p: string) => page.getByTestId("test-log").locator(`[data-phase="${p}"]`);

describe("test evidence in the browser", () => {
  it("streams the test log live in the Validating step, then shows the fixed test in the Tests panel", async () => {
    await startSolve("trailing-spaces ignores trailing tabs");
    // The base tree's suite carries the failing test; its output shows up while the run is live.
    await phase("base").waitFor({ timeout: 90_000 });
    expect(await page.getByRole("heading", { name: /^Base tree/ }).count()).toBe(1);

    await review();
    const panel = page.getByTestId("tests-panel");
    expect(await panel.getAttribute("data-status")).toBe("passed");
    expect(await panel.getByTestId("tests-fixed").textContent()).toContain("reports trailing tabs");
    expect(await panel.getByTestId("tests-regressions").count()).toBe(0);
    await panel.getByText("Log tail").click();
    await screenshot(page, "validate-tests");
    expect(await seriousA11yViolations(page)).toEqual([]);

    await page.goto("/validations");
    await page.getByTestId("tests-badge").first().waitFor();
    expect(await page.getByTestId("tests-badge").first().getAttribute("data-status")).toBe("passed");
  });

  it("shows the repair round live, keeps the log across a reload, and lists both attempts", async () => {
    await startSolve("line-length flags lines that are exactly at the limit");
    // The first answer breaks a passing test; hold the repair answer so the log can be read mid-run.
    await page.locator('[data-step="validating"][data-status="running"]').waitFor({ timeout: 90_000 });
    e2e.models.latency(8000);
    await page.getByTestId("test-log").locator('[data-phase="patched"][data-done="true"]').waitFor({ timeout: 60_000 });
    const counts = await phase("patched").getByTestId("tests-counts").textContent();
    expect(counts).toMatch(/[1-9]\d* failed/);
    await screenshot(page, "solve-tests-live");
    const before = await phase("base").locator("pre").textContent();
    expect(before).not.toBe("");

    await page.reload();
    await phase("patched").waitFor({ timeout: 30_000 });
    expect(await phase("base").locator("pre").textContent()).toBe(before);
    e2e.models.latency(0);

    await review();
    const attempts = page.getByTestId("tests-attempts").locator("[data-attempt]");
    expect(await attempts.evaluateAll((els) => els.map((e) => e.getAttribute("data-attempt")))).toEqual(["first", "repair"]);
    expect(await attempts.first().textContent()).toMatch(/1 regression/);
    expect(await attempts.last().textContent()).not.toMatch(/regression/);
    // The repair is kept: no regression left (the base tree's own failing test still fails on both).
    expect(await page.getByTestId("tests-regressions").count()).toBe(0);
    await screenshot(page, "validate-tests-repair");
  });

  it("fits a 390 px wide screen", async () => {
    const { page: narrow } = await e2e.newPage({ width: 390 });
    const url = page.url();
    await signIn(narrow, "hubot");
    await narrow.goto(url);
    await narrow.getByTestId("tests-panel").waitFor();
    const overflow = await narrow.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    await screenshot(narrow, "validate-tests-390");
  });

  it("runs the test command set for the repository on the Repositories page", async () => {
    await page.goto("/repositories");
    const card = page.getByRole("listitem").filter({ hasText: "hubot/markdown-lint" });
    await card.getByText("Test settings").click();
    await card.getByLabel("Test command").fill("node --test");
    // A timeout under the server's minimum is refused before anything is sent.
    await card.getByLabel("Timeout (seconds)").fill("2");
    expect(await card.getByLabel("Timeout (seconds)").evaluate((el) => (el as HTMLInputElement).validity.valid)).toBe(false);
    await card.getByLabel("Timeout (seconds)").fill("120");
    await card.getByRole("button", { name: "Save test settings of hubot/markdown-lint" }).click();
    await toast(page, "Test settings saved");
    await page.reload();
    await card.getByText("Test settings").click();
    expect(await card.getByLabel("Test command").inputValue()).toBe("node --test");
    await screenshot(page, "repository-test-settings");
    expect(await seriousA11yViolations(page)).toEqual([]);

    await startSolve("README shows a `--max-length` flag that does not exist");
    await review();
    expect(await page.getByTestId("tests-panel").getByText("node --test", { exact: true }).count()).toBe(1);
  });
});
