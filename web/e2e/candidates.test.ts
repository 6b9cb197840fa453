import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import type { ScriptedAnswer } from "@fixloop/testkit/sandbox";
import { screenshot, seriousA11yViolations, signIn, startE2E, toast, type E2E } from "./e2e.harness";
import { bringIn, review, startSolve } from "./tests-evidence.helpers";

// Several candidates, the reproduction test and abstention on the solve and review pages.
let e2e: E2E;
let page: Page;

beforeAll(async () => {
  e2e = await startE2E("candidates");
  ({ page } = await e2e.newPage());
  await bringIn(page, "hubot", "hubot/markdown-lint");
});
afterAll(async () => {
  await e2e?.stop();
});

/** A scripted answer whose change breaks the trailing-spaces tests (every attempt, the repair round too): unverified. */
const BREAKS_TRAILING_SPACES: ScriptedAnswer = {
  analysis: "Scripted to break the trailing-spaces rule.",
  proposedSolution: "Change the trailing pattern.",
  confidence: 70,
  files: [
    {
      filename: "src/rules/trailing-spaces.js",
      action: "modify",
      edits: [{ search: "const TRAILING = / +$/;\n", replace: "const TRAILING = /(?!)/;\n" }],
    },
  ],
};

describe("candidates, reproduction and abstention in the browser", () => {
  it("generates two candidates shown as live rows, picks the one without regressions, and lets the reviewer switch (1280 and 390 px)", async () => {
    const edit = (replace: string) => ({
      analysis: `TRAILING becomes ${replace.trim()}`,
      proposedSolution: "Match tabs in the trailing pattern.",
      confidence: 80,
      files: [
        {
          filename: "src/rules/trailing-spaces.js",
          action: "modify" as const,
          edits: [{ search: "const TRAILING = / +$/;\n", replace }],
        },
      ],
    });
    // Candidate 1 breaks the spaces tests, candidate 2 keeps them passing.
    e2e.models.respondPerCandidate(
      (p) => p.includes("trailing-spaces ignores trailing tabs"),
      [edit("const TRAILING = /\\t+$/;\n"), edit("const TRAILING = /[ \\t]+$/;\n")],
    );
    await page.goto("/issues");
    await page.getByRole("link", { name: "Solve with AI: trailing-spaces ignores trailing tabs" }).click();
    await page.getByLabel("Candidates").selectOption("2");
    expect(await page.getByTestId("cost-estimate").textContent()).toContain("for 2 candidates");
    await page.getByRole("button", { name: "Generate Solution" }).click();
    await page.getByTestId("candidate-row-2").waitFor({ timeout: 90_000 });
    // Candidates are tested one after another: the winner is known once the last one is tested.
    await page
      .getByTestId("candidate-row-2")
      .getByText(/winner/)
      .waitFor({ timeout: 90_000 });
    expect(await page.getByTestId("candidate-row-1").textContent()).toContain("Tested");
    expect(await page.getByTestId("candidate-row-1").textContent()).not.toContain("winner");
    await screenshot(page, "solve-candidates");

    await review(page);
    expect(await page.getByTestId("candidates-reason").textContent()).toMatch(
      /^Candidate 2 won: candidate 1 breaks \d+ tests? that passed before/,
    );
    expect(await page.getByTestId("candidate-2").textContent()).toContain("in the solution");
    await page.getByRole("button", { name: "Use candidate 1" }).click();
    await toast(page, "The solution now carries candidate 1");
    await page
      .getByTestId("candidate-1")
      .getByText(/in the solution/)
      .waitFor();
    expect(await page.getByTestId("tests-panel").getAttribute("data-status")).toBe("failed");
    await screenshot(page, "validate-candidates");
    expect(await seriousA11yViolations(page)).toEqual([]);

    const { page: narrow } = await e2e.newPage({ width: 390 });
    await signIn(narrow, "hubot");
    await narrow.goto(page.url());
    await narrow.getByRole("button", { name: "Use candidate 2" }).click();
    await toast(narrow, "The solution now carries candidate 2");
    await narrow
      .getByTestId("candidate-2")
      .getByText(/in the solution/)
      .waitFor();
    const overflow = await narrow.evaluate(
      () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
    );
    expect(overflow).toBeLessThanOrEqual(0);
    await screenshot(narrow, "validate-candidates-390");
  });

  it("shows the reproduction test on the review page, marks an unverified solution on the issue card and the Approve button, and presents none once Settings says so (1280 and 390 px)", async () => {
    // The candidates case's solution: the seeded reproduction test failed on base and passes with the winner.
    await page.reload();
    expect(await page.getByTestId("reproduction-line").textContent()).toBe(
      "Reproduction test kept: test/trailing-tab-reproduction.test.js fails on the base tree (reproduction: a line ending in a tab is reported)",
    );
    await page.getByRole("button", { name: "Include the reproduction test in the PR" }).click();
    await toast(page, "Reproduction test included in the pull request");
    await page.getByText("Included: test/trailing-tab-reproduction.test.js").waitFor();
    await screenshot(page, "validate-reproduction");

    // Every attempt at the line-length issue breaks the trailing-spaces tests (the repair round too): unverified.
    const title = "line-length flags lines that are exactly at the limit";
    e2e.models.respondWith((p) => p.includes(title), BREAKS_TRAILING_SPACES);
    await startSolve(page, title);
    await review(page);
    const notice = await page.getByTestId("unverified").textContent();
    expect(notice).toContain("The change breaks tests that passed before (");
    expect(notice).toContain("reports trailing spaces with their column");
    const approve = page.getByRole("button", { name: "Approve unverified & Create draft PR" });
    expect(await approve.getAttribute("title")).toMatch(/^The change breaks tests that passed before/);
    await screenshot(page, "validate-unverified");
    expect(await seriousA11yViolations(page)).toEqual([]);
    const reviewUrl = page.url();

    // The issue card says so, with the reason, at both widths.
    const { page: narrow } = await e2e.newPage({ width: 390 });
    await signIn(narrow, "hubot");
    for (const [p, name] of [
      [page, "issues-unverified"],
      [narrow, "issues-unverified-390"],
    ] as const) {
      await p.goto("/issues");
      const reason = p
        .getByTestId("unverified-reason")
        .filter({ hasText: "reports trailing spaces with their column" });
      await reason.waitFor();
      expect(await reason.textContent()).toMatch(
        /^The solution awaiting review is unverified: The change breaks tests that passed before/,
      );
      await screenshot(p, name);
    }
    await narrow.goto(reviewUrl);
    await narrow.getByRole("button", { name: "Approve unverified & Create draft PR" }).waitFor();
    await narrow.getByTestId("unverified").waitFor();
    const overflow = await narrow.evaluate(
      () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
    );
    expect(overflow).toBeLessThanOrEqual(0);
    await screenshot(narrow, "validate-unverified-390");

    // "Do not present unverified solutions": the next unverified run ends with no solution and says why.
    const setting = (p: Page) => p.getByRole("checkbox", { name: /^Do not present unverified solutions/ });
    await narrow.goto("/profile-settings?tab=settings");
    // The box shows what the server saved (a controlled input): it turns checked once the save answers.
    await setting(narrow).click();
    await expect.poll(() => setting(narrow).isChecked()).toBe(true);
    await screenshot(narrow, "settings-unverified-not-presented-390");
    await page.goto("/profile-settings?tab=settings");
    // The same user on the wide page: the box reads the saved setting once it has loaded.
    await expect.poll(() => setting(page).isChecked()).toBe(true);
    const next = "heading-increment misses a jump from # to ###";
    e2e.models.respondWith((p) => p.includes(next), BREAKS_TRAILING_SPACES);
    await startSolve(page, next);
    const failed = page.getByRole("alert").filter({ hasText: "The last run failed: No solution presented:" });
    await failed.waitFor({ timeout: 120_000 });
    expect(await failed.textContent()).toContain("The change breaks tests that passed before");
    expect(await page.getByTestId("solution-result").count()).toBe(0);
    await screenshot(page, "solve-unverified-not-presented");
    await narrow.goto(page.url());
    await narrow.getByRole("alert").filter({ hasText: "Unverified solutions are not presented" }).waitFor();
    expect(
      await narrow.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth),
    ).toBeLessThanOrEqual(0);
    await screenshot(narrow, "solve-unverified-not-presented-390");
    await page.goto("/profile-settings?tab=settings");
    await expect.poll(() => setting(page).isChecked()).toBe(true);
    await setting(page).click();
    await expect.poll(() => setting(page).isChecked()).toBe(false);
  });
});
