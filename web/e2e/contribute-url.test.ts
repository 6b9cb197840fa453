import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { screenshot, seriousA11yViolations, signIn, startE2E, type E2E } from "./e2e.harness";
import { atBothWidths, sharePhoneSession } from "./walk.helpers";

// The import-by-URL page's own checks of what is typed, at desktop and phone width.
let e2e: E2E;
let desk: Page;
let phone: Page;
/** The contributions API calls each page made. */
const calls = new Map<Page, string[]>();

beforeAll(async () => {
  e2e = await startE2E("contribute-url");
  ({ page: desk } = await e2e.newPage({ width: 1280 }));
  ({ page: phone } = await e2e.newPage({ width: 390 }));
  await signIn(desk, "octocat");
  await sharePhoneSession(desk, phone);
  for (const page of [desk, phone]) {
    calls.set(page, []);
    page.on("request", (r) => {
      const { pathname } = new URL(r.url());
      if (pathname.startsWith("/api/contributions/")) calls.get(page)?.push(pathname);
    });
  }
});
afterAll(async () => {
  await e2e?.stop();
});

const NOT_AN_ISSUE = "Please provide a GitHub issue URL, not just a repository URL";
const HINT = "Add the issue's number after /issues/, or paste the issue's URL.";

describe("the contribute page's URL checks", () => {
  it("answers a repository's issues page with its own guidance, at once, and keeps what was typed", async () => {
    const [n = 0] = e2e.github.addIssues("hubot", "markdown-lint", [
      { title: "Lists nested in block quotes are not checked", user: "hubot" },
    ]);
    for (const [page, width] of atBothWidths(desk, phone)) {
      await page.goto("/contribute");
      const input = page.getByLabel("GitHub issue URL");
      const alert = page.locator("#contribute-error");
      for (const [typed, submit] of [
        ["https://github.com/hubot/markdown-lint/issues", "click"],
        ["https://github.com/hubot/markdown-lint/issues/", "Enter"],
        ["  github.com/hubot/markdown-lint/issues/ ", "click"],
      ] as const) {
        calls.set(page, []);
        await input.fill("");
        await input.pressSequentially(typed);
        await page.getByText(HINT).waitFor();
        if (submit === "click") await page.getByRole("button", { name: "Preview Issue" }).click();
        else await input.press("Enter");
        await page.getByRole("alert").filter({ hasText: NOT_AN_ISSUE }).waitFor();
        expect(await alert.textContent()).toBe(NOT_AN_ISSUE);
        // What was typed stays, the hint says what is missing, and nothing was asked of the server.
        expect(await input.inputValue()).toBe(typed);
        expect(await input.getAttribute("aria-invalid")).toBe("true");
        expect(await input.getAttribute("aria-describedby")).toBe("contribute-error contribute-hint");
        expect(await page.getByText(HINT).isVisible()).toBe(true);
        expect(calls.get(page)).toEqual([]);
      }
      expect(await page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth)).toBe(false);
      expect(await seriousA11yViolations(page), `contribute at ${width}`).toEqual([]);
      await screenshot(page, `contribute-issues-page-${width}`);

      // Typing the number answers the message; the issue then previews, and Back returns to the same URL.
      const issues = "https://github.com/hubot/markdown-lint/issues/";
      await input.fill(issues);
      await input.press("Enter");
      await alert.waitFor();
      await input.press("End");
      await input.pressSequentially(String(n));
      expect(await alert.count()).toBe(0);
      expect(await input.getAttribute("aria-invalid")).toBe("false");
      expect(await page.getByText(HINT).count()).toBe(0);
      await page.getByRole("button", { name: "Preview Issue" }).click();
      await page.getByRole("heading", { name: "Lists nested in block quotes are not checked" }).waitFor();
      await page.getByRole("button", { name: "← Back" }).click();
      expect(await input.inputValue()).toBe(`${issues}${n}`);
    }
  });

  it("still shows the server's reason for a URL that is no GitHub reference, keeping the input", async () => {
    for (const [page, width] of atBothWidths(desk, phone)) {
      await page.goto("/contribute");
      const input = page.getByLabel("GitHub issue URL");
      await input.fill("https://gitlab.com/hubot/markdown-lint/issues/1");
      await page.getByRole("button", { name: "Preview Issue" }).click();
      await page
        .getByRole("alert")
        .filter({
          hasText: /^Invalid URL: use a GitHub issue URL like https:\/\/github\.com\/owner\/repo\/issues\/123/,
        })
        .waitFor();
      expect(await input.inputValue()).toBe("https://gitlab.com/hubot/markdown-lint/issues/1");
      expect(await page.getByText(HINT).count()).toBe(0);
      await screenshot(page, `contribute-invalid-url-${width}`);
    }
  });
});
