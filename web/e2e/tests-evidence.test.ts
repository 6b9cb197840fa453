import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { screenshot, seriousA11yViolations, signIn, startE2E, toast, type E2E } from "./e2e.harness";
import { bringIn, review, startSolve } from "./tests-evidence.helpers";

let e2e: E2E;
let page: Page;

beforeAll(async () => {
  e2e = await startE2E("tests-evidence");
  ({ page } = await e2e.newPage());
});
afterAll(async () => {
  await e2e?.stop();
});

const phase = (p: string) => page.getByTestId("test-log").locator(`[data-phase="${p}"]`);

/** The model stand-in's repair of the line-length issue explains itself so (its first attempt: "one character to spare"). */
const KEPT_TEXT = "Compare with > so the limit itself is allowed.";

/** The repair round names the test the first attempt broke and offers that attempt's diff (not kept). */
async function expectFirstAttemptShown(p: Page) {
  const first = p.getByTestId("tests-attempts").locator('[data-attempt="first"]');
  expect(await first.getByTestId("attempt-regressions").getByRole("listitem").count()).toBe(1);
  expect((await first.getByTestId("attempt-regressions").textContent())?.replace("✗", "").trim()).not.toBe("");
  await first.getByText("First attempt diff (not kept)").click();
  await first.getByTestId("attempt-diff").locator("[data-filename]").first().waitFor();
  expect(
    await p.getByTestId("tests-attempts").locator('[data-attempt="repair"]').getByTestId("attempt-diff").count(),
  ).toBe(0);
}

describe("test evidence in the browser", () => {
  it("streams the test log live (under Generating while the base tree runs, then Validating), then shows the fixed test in the Tests panel", async () => {
    // octocat/todo-api's base tree carries the pagination issue's failing test (TypeScript, run offline).
    const { page: octo } = await e2e.newPage();
    await bringIn(octo, "octocat", "octocat/todo-api");
    await startSolve(octo, "Pagination skips a todo at every page boundary");
    const log = octo.getByTestId("test-log");
    await log.locator('[data-phase="base"]').waitFor({ timeout: 90_000 });
    expect(await octo.getByRole("heading", { name: /^Base tree/ }).count()).toBe(1);

    await review(octo);
    const panel = octo.getByTestId("tests-panel");
    expect(await panel.getAttribute("data-status")).toBe("passed");
    expect(await panel.getByTestId("tests-fixed").textContent()).toContain("continues page 2 right after page 1");
    expect(await panel.getByTestId("tests-regressions").count()).toBe(0);
    await panel.getByText("Log tail").click();
    await screenshot(octo, "validate-tests");
    expect(await seriousA11yViolations(octo)).toEqual([]);

    await octo.goto("/validations");
    await octo.getByTestId("tests-badge").first().waitFor();
    expect(await octo.getByTestId("tests-badge").first().getAttribute("data-status")).toBe("passed");
  });

  it("shows the repair round live, keeps the log across a reload, and lists both attempts", async () => {
    await bringIn(page, "hubot", "hubot/markdown-lint");
    await startSolve(page, "line-length flags lines that are exactly at the limit");
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

    await review(page);
    const attempts = page.getByTestId("tests-attempts").locator("[data-attempt]");
    expect(await attempts.evaluateAll((els) => els.map((e) => e.getAttribute("data-attempt")))).toEqual([
      "first",
      "repair",
    ]);
    expect(await attempts.first().textContent()).toMatch(/1 regression/);
    expect(await attempts.last().textContent()).not.toMatch(/regression/);
    // The repair is kept: no regression left.
    expect(await page.getByTestId("tests-regressions").count()).toBe(0);
    await expectFirstAttemptShown(page);
    // The proposed solution is the kept repair's, not the discarded first attempt's.
    expect(await page.getByRole("heading", { name: "Proposed Solution" }).locator("..").textContent()).toContain(
      KEPT_TEXT,
    );
    await screenshot(page, "validate-tests-repair");
  });

  it("fits a 390 px wide screen", async () => {
    const { page: narrow } = await e2e.newPage({ width: 390 });
    const url = page.url();
    await signIn(narrow, "hubot");
    await narrow.goto(url);
    await narrow.getByTestId("tests-panel").waitFor();
    const overflow = await narrow.evaluate(
      () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
    );
    expect(overflow).toBeLessThanOrEqual(0);
    await expectFirstAttemptShown(narrow);
    expect(
      await narrow.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth),
    ).toBeLessThanOrEqual(0);
    await screenshot(narrow, "validate-tests-390");

    // "Add a test" refines from the kept repair: its text stays the repair's, and the new test runs and passes.
    const proposed = narrow.getByRole("heading", { name: "Proposed Solution" }).locator("..");
    expect(await proposed.textContent()).toContain(KEPT_TEXT);
    await narrow.getByLabel("What should the AI change?").fill("Please add a test for this.");
    await narrow.getByRole("button", { name: "Request Refinement" }).click();
    await narrow
      .locator("[data-sonner-toast]")
      .filter({ hasText: "Solution refined! (Refinement #1)" })
      .waitFor({ timeout: 90_000 });
    await narrow.getByText("Refinements: 1").waitFor();
    await expect
      .poll(() => narrow.getByTestId("tests-new-tests-passing").textContent())
      .toContain("regression: line-length flags lines that are exactly at the limit");
    expect(await proposed.textContent()).toContain(KEPT_TEXT);
    expect(await proposed.textContent()).not.toContain("one character to spare");
    await screenshot(narrow, "validate-refined-test-390");
  });

  it("runs the test command set for the repository on the Repositories page", async () => {
    await page.goto("/repositories");
    const card = page.getByRole("listitem").filter({ hasText: "hubot/markdown-lint" });
    await card.getByText("Test settings").click();
    await card.getByLabel("Test command").fill("node --test");
    // A timeout under the server's minimum is refused before anything is sent.
    await card.getByLabel("Timeout (seconds)").fill("2");
    expect(await card.getByLabel("Timeout (seconds)").evaluate((el) => (el as HTMLInputElement).validity.valid)).toBe(
      false,
    );
    await card.getByLabel("Timeout (seconds)").fill("120");
    await card.getByRole("button", { name: "Save test settings of hubot/markdown-lint" }).click();
    await toast(page, "Test settings saved");
    await page.reload();
    await card.getByText("Test settings").click();
    expect(await card.getByLabel("Test command").inputValue()).toBe("node --test");
    await screenshot(page, "repository-test-settings");
    expect(await seriousA11yViolations(page)).toEqual([]);

    await startSolve(page, "README shows a `--max-length` flag that does not exist");
    await review(page);
    expect(await page.getByTestId("tests-panel").getByText("node --test", { exact: true }).count()).toBe(1);
  });

  it("solves an issue labelled on GitHub once the owner turns the label on for the repository, and marks the run as label-started (1280 and 390 px)", async () => {
    // Its own user and repository (AI help welcome when disclosed): independent of the cases above.
    const { page: wide } = await e2e.newPage();
    await bringIn(wide, "opencommons", "opencommons/disclose-lib");
    await wide.goto("/repositories");
    const card = wide.getByRole("listitem").filter({ hasText: "opencommons/disclose-lib" });
    await card.getByText("Solve on label").click();
    await card.getByLabel("Solve issues labelled").check();
    await card.getByLabel("Label", { exact: true }).fill("fixloop");
    await card.getByRole("button", { name: "Save label setting of opencommons/disclose-lib" }).click();
    await toast(wide, "Issues labelled fixloop will be solved");
    await screenshot(wide, "repository-label-trigger");

    // A test user labels a new issue on GitHub. The stand-in's webhook and the repository sync both
    // reach the trigger; its claim in Postgres lets one of them start the run and comment, once.
    const [n = 0] = e2e.github.addIssues("opencommons", "disclose-lib", [{ title: "Setext headings are not checked" }]);
    const gh = (path: string, init: RequestInit = {}) =>
      fetch(`${e2e.stack.env.GITHUB_API_URL}/repos/opencommons/disclose-lib/issues/${n}${path}`, {
        ...init,
        headers: {
          authorization: `token ${e2e.github.issueToken("opencommons", ["repo"])}`,
          "content-type": "application/json",
        },
      });
    expect((await gh("/labels", { method: "POST", body: JSON.stringify({ labels: ["fixloop"] }) })).status).toBe(200);
    await wide.getByRole("button", { name: "Sync opencommons/disclose-lib" }).click();
    await toast(wide, "Repository synced successfully");
    const commentsNow = async () => (await (await gh("/comments")).json()) as { body: string }[];
    await expect.poll(async () => (await commentsNow()).length, { timeout: 15_000 }).toBe(1);
    const comments = await commentsNow();
    expect(comments).toHaveLength(1);
    const link = /\/issues\/[0-9a-f-]+\/solve\?run=[0-9a-f-]+/.exec(comments[0]?.body ?? "")?.[0];
    expect(link).toBeDefined();
    await wide.goto(link ?? "/");
    await wide.getByTestId("run-trigger").getByText("fixloop", { exact: true }).waitFor();
    expect(await wide.getByTestId("run-trigger").textContent()).toContain("Started by the fixloop label");
    await screenshot(wide, "solve-label-trigger");
    // The issues list says so on the issue's card too.
    const issueNote = async (page: typeof wide) => {
      await page.goto("/issues");
      await page.getByRole("tab", { name: /^All/ }).click();
      const note = page
        .getByRole("listitem")
        .filter({ hasText: "Setext headings are not checked" })
        .getByTestId("issue-run-trigger");
      await note.waitFor();
      expect(await note.textContent()).toBe("Started by the fixloop label");
    };
    await issueNote(wide);
    await screenshot(wide, "issues-label-trigger");

    const { page: narrow } = await e2e.newPage({ width: 390 });
    await signIn(narrow, "opencommons");
    await narrow.goto("/repositories");
    const narrowCard = narrow.getByRole("listitem").filter({ hasText: "opencommons/disclose-lib" });
    await narrowCard.getByText("Solve on label").click();
    expect(await narrowCard.getByLabel("Solve issues labelled").isChecked()).toBe(true);
    await screenshot(narrow, "repository-label-trigger-390");
    await narrow.goto(link ?? "/");
    await narrow.getByTestId("run-trigger").waitFor();
    const overflow = await narrow.evaluate(
      () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
    );
    expect(overflow).toBeLessThanOrEqual(0);
    await screenshot(narrow, "solve-label-trigger-390");
    await issueNote(narrow);
    expect(
      await narrow.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth),
    ).toBeLessThanOrEqual(0);
    await screenshot(narrow, "issues-label-trigger-390");
  });
});
