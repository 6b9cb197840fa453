import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Locator, Page } from "playwright-core";
import {
  generate,
  openSolve,
  screenshot,
  SCREENSHOTS,
  seriousA11yViolations,
  signInWithTodoApi,
  solveAndReview,
  startE2E,
  type E2E,
} from "./e2e.harness";

let e2e: E2E;
let page: Page;

beforeAll(async () => {
  e2e = await startE2E("review");
  ({ page } = await e2e.newPage());
  // The page's timers run on Playwright's clock: time flows as usual, and a test runs it ahead to
  // fire at once every tick that is due.
  await page.clock.install();
  await signInWithTodoApi(page);
});
afterAll(async () => {
  await e2e?.stop();
});

const step = (id: string) => page.locator(`[data-step="${id}"]`);
const elapsed = async () => Number((await page.getByTestId("elapsed").textContent())?.replace("s", ""));

describe("following a run", () => {
  it("expands the current step with what it has reported so far, and completed steps with their output", async () => {
    e2e.models.latency(6000);
    await openSolve(page, "Pagination skips a todo at every page boundary");
    await generate(page);
    await page.locator('[data-step="generating"][data-status="running"]').waitFor({ timeout: 60_000 });
    await step("generating")
      .getByRole("button", { name: /Generating Solution/ })
      .click();
    const detail = step("generating").getByTestId("step-detail");
    // Step 4 first checks a reproduction test on the base tree (its request also takes the model's 6 s), then asks for the fix.
    await detail
      .getByText(/reproduces the issue|Reproduction test/)
      .first()
      .waitFor({ timeout: 30_000 });
    await detail.getByText(/waiting for its answer/).waitFor({ timeout: 30_000 });
    expect(await detail.textContent()).toMatch(/Model: .+/);
    await step("analyzing")
      .getByRole("button", { name: /Analyzing Issue/ })
      .click();
    await step("analyzing").getByTestId("step-detail").waitFor();
    await screenshot(page, "solve-current-step-expanded");
    e2e.models.latency(0);
    await page.getByTestId("solution-result").waitFor({ timeout: 90_000 });
  });

  it("shows Cancelling… at once, then the cancelled state on the step that was running", async () => {
    e2e.models.latency(30_000);
    await openSolve(page, "README says port 3000 but the server starts on 8080");
    await generate(page);
    await page.locator('[data-step="generating"][data-status="running"]').waitFor({ timeout: 60_000 });
    await page.getByRole("button", { name: "Cancel", exact: true }).click();
    // At once: "Cancelling…", or already the cancelled step when the worker aborted within the second.
    await page
      .getByRole("button", { name: "Cancelling…", exact: true })
      .or(page.locator('[data-step="generating"][data-status="cancelled"]'))
      .first()
      .waitFor({ timeout: 1_000 });
    // Either way the spinner never says "In progress" again.
    await page
      .locator('[data-step="generating"]:is([data-status="cancelling"], [data-status="cancelled"])')
      .waitFor({ timeout: 1_000 });
    await page.locator('[data-step="generating"][data-status="cancelled"]').waitFor({ timeout: 10_000 });
    await page.getByText("The last run was cancelled.").waitFor();
    expect(await page.getByTestId("steps").locator(".animate-spin").count()).toBe(0);
    const stopped = await elapsed();
    // A second and a half of the page's timers fire at once: a counter still ticking would move.
    await page.clock.runFor(1500);
    expect(await elapsed()).toBe(stopped);
    await screenshot(page, "solve-cancelled");

    await page.reload();
    await page.locator('[data-step="generating"][data-status="cancelled"]').waitFor();
    e2e.models.latency(0);
  });
});

/** Whether the element's box lies inside the other's (or the viewport's) visible area. */
async function inside(el: Locator, box?: Locator): Promise<boolean> {
  const a = await el.boundingBox();
  const b = box
    ? await box.boundingBox()
    : { x: 0, y: 0, width: page.viewportSize()?.width ?? 0, height: page.viewportSize()?.height ?? 0 };
  if (!a || !b) return false;
  return a.y >= b.y - 1 && a.y + Math.min(a.height, 20) <= b.y + b.height + 1;
}

/** Opens the first file's editor on the review page; the editor once its text is shown. */
async function openEditor(): Promise<Locator> {
  await page
    .getByRole("button", { name: /^Edit This File: / })
    .first()
    .click();
  const editor = page.getByTestId("file-editor");
  await editor.locator(".cm-content").waitFor();
  return editor;
}

/** The test the model stand-in adds when asked for one on the due-date issue (test/due.test.js). */
const ADDED_TEST = "regression: Todos due today are already marked overdue";

async function refine(feedback: string, n: number) {
  await page.getByLabel("What should the AI change?").fill(feedback);
  await page.getByRole("button", { name: "Request Refinement" }).click();
  await page
    .locator("[data-sonner-toast]")
    .filter({ hasText: `Solution refined! (Refinement #${n})` })
    .waitFor({ timeout: 90_000 });
  await page.getByText(`Refinements: ${n}`).waitFor();
}

describe("reviewing a solution at 1280 px", () => {
  it("opens each file at its first change, with syntax colours, and brings the editor into view", async () => {
    await solveAndReview(page, "Todos due today are already marked overdue");
    const diff = page.getByTestId("file-diff").first();
    await diff.locator(".tok-keyword").first().waitFor({ timeout: 10_000 });
    for (const region of await page.getByRole("region", { name: /^Diff of / }).all()) {
      expect(await inside(region.locator("[data-change]").first(), region)).toBe(true);
    }
    expect(await diff.getAttribute("data-layout")).toBe("split");

    const editor = await openEditor();
    await expect.poll(() => inside(editor)).toBe(true);
    await page.getByRole("button", { name: "Cancel", exact: true }).click();
  });

  it("switches between split and unified diffs and remembers the choice", async () => {
    await page.getByRole("button", { name: "Unified" }).click();
    expect(await page.getByTestId("file-diff").first().getAttribute("data-layout")).toBe("unified");
    await page.reload();
    await page.getByRole("heading", { name: "Validation Decision" }).waitFor();
    expect(await page.getByTestId("file-diff").first().getAttribute("data-layout")).toBe("unified");
    expect(await page.getByRole("button", { name: "Unified" }).getAttribute("aria-pressed")).toBe("true");
    await page.getByRole("button", { name: "Split" }).click();
    expect(await page.getByTestId("file-diff").first().getAttribute("data-layout")).toBe("split");
  });

  it("refines on feedback and shows what each refinement changed", async () => {
    await refine("Also add a test for a todo due later today.", 1);
    const summary = page.getByTestId("refinement-summary");
    await summary.getByText("Refinement #1 changed 1 file").waitFor();
    expect(await summary.textContent()).toContain("test/due.test.js");
    const added = page.locator('[data-testid="file-diff"][data-filename="test/due.test.js"]');
    expect(await added.getByTestId("refinement-marker").textContent()).toBe("New in refinement #1");
    expect(await page.locator('[data-filename="src/due.ts"]').getByTestId("refinement-marker").count()).toBe(0);
    // The test "add a test" wrote lands where the repository's tests run, and passes with the fix.
    await expect.poll(() => page.getByTestId("tests-new-tests-passing").textContent()).toContain(ADDED_TEST);
    expect(await page.getByTestId("tests-regressions").count()).toBe(0);

    await refine("Please rename isOverdue to isPastDue.", 2);
    const due = page.locator('[data-testid="file-diff"][data-filename="src/due.ts"]');
    expect(await due.getByTestId("refinement-marker").textContent()).toBe("Changed in refinement #2");
    await due.getByRole("button", { name: "Compare with previous version" }).click();
    // Against the previous version only the renamed line differs (one split row).
    const changes = due.locator("[data-change]");
    await expect.poll(() => changes.count()).toBe(1);
    expect(await changes.first().textContent()).toMatch(/isOverdue.*isPastDue/s);
    await screenshot(page, "validate-refined-1280");
    expect(await seriousA11yViolations(page)).toEqual([]);
    await due.getByRole("button", { name: "Compare with repository" }).click();
    await expect.poll(() => changes.count()).toBeGreaterThan(1);
  });

  it("holds the files and the decision while a refinement runs, follows it after a reload, and lets it be cancelled", async () => {
    const running = page.getByRole("status").filter({ hasText: "A refinement is running" });
    const edits = page.getByRole("button", { name: /^Edit This File: / });
    e2e.models.latency(30_000);
    await page.getByLabel("What should the AI change?").fill("Mention the time zone in the comment.");
    await page.getByRole("button", { name: "Request Refinement" }).click();
    await running.waitFor();
    expect(await edits.count()).toBe(0);
    expect(await page.getByRole("button", { name: /^Approve/ }).isDisabled()).toBe(true);
    expect(await page.getByRole("button", { name: "Reject" }).isDisabled()).toBe(true);

    // A reload does not lose it: the page follows the running refinement and still holds the files.
    await page.reload();
    await page.getByRole("heading", { name: "Validation Decision" }).waitFor();
    await running.waitFor();
    await page.getByTestId("steps").waitFor();
    expect(await edits.count()).toBe(0);
    await screenshot(page, "validate-refining-1280");
    const size = page.viewportSize();
    await page.setViewportSize({ width: 390, height: 844 });
    await page.getByRole("button", { name: "Cancel refinement" }).scrollIntoViewIfNeeded();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await screenshot(page, "validate-refining-390");
    if (size) await page.setViewportSize(size);

    await page.getByRole("button", { name: "Cancel refinement" }).click();
    await edits.first().waitFor({ timeout: 30_000 });
    await running.waitFor({ state: "detached" });
    expect(await page.getByRole("button", { name: "Reject" }).isDisabled()).toBe(false);
    expect(await page.getByText("Refinements: 2").count()).toBe(1);
    e2e.models.latency(0);
  });
});

describe("reviewing on a phone (390 x 844)", () => {
  let phone: Page;
  beforeAll(async () => {
    const context = await e2e.browser.newContext({
      viewport: { width: 390, height: 844 },
      baseURL: e2e.stack.url,
      storageState: await page.context().storageState(),
    });
    phone = await context.newPage();
  });

  it("shows a unified diff with whole file names, opened at the first change", async () => {
    await phone.goto(page.url());
    await phone.getByRole("heading", { name: "Validation Decision" }).waitFor();
    expect(await phone.getByRole("group", { name: "Diff layout" }).count()).toBe(0);
    for (const diff of await phone.getByTestId("file-diff").all()) {
      expect(await diff.getAttribute("data-layout")).toBe("unified");
      const name = diff.getByTestId("file-name");
      expect(
        await name.evaluate(
          (el) => el.scrollWidth <= el.clientWidth && el.getBoundingClientRect().right <= window.innerWidth,
        ),
      ).toBe(true);
      expect(await diff.getByRole("button", { expanded: true }).first().getAttribute("title")).toBe(
        await diff.getAttribute("data-filename"),
      );
    }
    for (const region of await phone.getByRole("region", { name: /^Diff of / }).all()) {
      const [first, box] = await Promise.all([
        region.locator("[data-change]").first().boundingBox(),
        region.boundingBox(),
      ]);
      expect(first && box && first.y >= box.y && first.y < box.y + box.height).toBe(true);
    }
    expect(await phone.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    expect(await phone.getByTestId("tests-new-tests-passing").textContent()).toContain(ADDED_TEST);
    await phone
      .getByRole("button", { name: /^Edit This File: / })
      .first()
      .click();
    const editor = phone.getByTestId("file-editor");
    await editor.locator(".cm-content").waitFor();
    await expect
      .poll(async () => {
        const b = await editor.boundingBox();
        return !!b && b.y >= 0 && b.y < 844;
      })
      .toBe(true);
    await phone.getByRole("button", { name: "Cancel", exact: true }).click();
    await screenshot(phone, "validate-390");
    await phone
      .getByTestId("file-diff")
      .first()
      .screenshot({ path: path.join(SCREENSHOTS, "diff-390.png") });
    expect(await seriousA11yViolations(phone)).toEqual([]);
  });

  it("keeps every top-bar control whole and opens the navigation as a drawer with labels", async () => {
    const search = phone.getByTestId("top-search");
    expect(
      await search.evaluate(
        (el) =>
          el.scrollWidth <= el.clientWidth &&
          [...el.querySelectorAll("span")]
            .filter((s) => s.getBoundingClientRect().width > 1)
            .every((s) => s.scrollWidth <= s.clientWidth),
      ),
    ).toBe(true);
    for (const control of [
      search,
      phone.getByRole("button", { name: /^Notifications/ }),
      phone.getByRole("button", { name: "Open menu" }),
    ]) {
      const b = await control.boundingBox();
      expect(b && b.x >= 0 && b.x + b.width <= 390).toBe(true);
    }
    expect(await phone.locator('nav[aria-label="Main"]').first().isVisible()).toBe(false);

    const menu = phone.getByRole("button", { name: "Open menu" });
    await menu.click();
    const drawer = phone.getByRole("dialog", { name: "Menu" });
    await drawer.getByRole("link", { name: "Validations" }).waitFor();
    expect(await drawer.getByText("Pull Requests").isVisible()).toBe(true);
    await screenshot(phone, "nav-drawer-390");
    for (let i = 0; i < 12; i++) {
      await phone.keyboard.press("Tab");
      expect(await drawer.evaluate((d) => d.contains(document.activeElement))).toBe(true);
    }
    await phone.keyboard.press("Escape");
    await drawer.waitFor({ state: "hidden" });
    expect(await menu.evaluate((el) => el === document.activeElement)).toBe(true);

    await menu.click();
    await drawer.getByRole("link", { name: "Issues" }).click();
    await phone.waitForURL(/\/issues$/);
    await drawer.waitFor({ state: "hidden" });
  });

  it("offers the landing page's sections behind a menu", async () => {
    const context = await e2e.browser.newContext({ viewport: { width: 390, height: 844 }, baseURL: e2e.stack.url });
    const visitor = await context.newPage();
    await visitor.goto("/");
    const menu = visitor.getByRole("button", { name: "Menu" });
    await menu.click();
    for (const name of ["Features", "How It Works", "Benefits", "Pricing"]) {
      expect(await visitor.locator("#landing-menu").getByRole("link", { name }).isVisible()).toBe(true);
    }
    await screenshot(visitor, "landing-menu-390");
    await visitor.locator("#landing-menu").getByRole("link", { name: "How It Works" }).click();
    await visitor.waitForURL(/#how-it-works$/);
    expect(await visitor.locator("#landing-menu").count()).toBe(0);
    expect(await visitor.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await context.close();
  });
});

describe("a change with hidden characters", () => {
  it("shows a direction override or a zero-width space in the diff as its code point, never applied", async () => {
    const editor = await openEditor();
    await editor.locator(".cm-content").click();
    await page.keyboard.press("Control+End");
    // Trojan Source: read in order, this is a string and a comment; the overrides make it read otherwise.
    await page.keyboard.insertText('\nexport const role = "user\u202E \u2066// admin\u2069 \u2066";\u200B\n');
    await page.getByRole("button", { name: "Save Changes" }).click();
    const shown = page.locator("[data-hidden-char]");
    await shown.first().waitFor({ timeout: 30_000 });
    expect(await page.locator('[data-hidden-char="U+202E"]').count()).toBeGreaterThan(0);
    expect(await page.locator('[data-hidden-char="U+200B"]').count()).toBeGreaterThan(0);
    // No override reaches the page's text: each is shown as its code point instead.
    const line = page
      .locator("[data-change]")
      .filter({ has: page.locator('[data-hidden-char="U+202E"]') })
      .first();
    expect(await line.textContent()).not.toMatch(/[\u202A-\u202E\u2066-\u2069\u200B]/);
    await line.scrollIntoViewIfNeeded();
    await page
      .getByTestId("file-diff")
      .filter({ has: line })
      .screenshot({ path: path.join(SCREENSHOTS, "diff-hidden-chars-1280.png") });
  });
});
