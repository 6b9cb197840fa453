import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { authorizeRepositories, openSolve, screenshot, signIn, startE2E, toast, type E2E } from "./e2e.harness";
import { atBothWidths, fetchIssues, sharePhoneSession } from "./walk.helpers";

// A new user's first full walk, at desktop and phone width (issue #14).
let e2e: E2E;
let desk: Page;
let phone: Page;
const WIDTHS = { desk: 1280, phone: 390 } as const;

beforeAll(async () => {
  e2e = await startE2E("walk");
  ({ page: desk } = await e2e.newPage({ width: WIDTHS.desk }));
  ({ page: phone } = await e2e.newPage({ width: WIDTHS.phone }));
});
afterAll(async () => {
  await e2e?.stop();
});

const both = () => atBothWidths(desk, phone);

async function solveAndReview(title: string) {
  await openSolve(desk, title);
  const solveUrl = desk.url();
  await desk.getByRole("button", { name: "Generate Solution" }).click();
  await desk.getByTestId("solution-result").waitFor({ timeout: 90_000 });
  await desk.getByRole("link", { name: "Review & Validate" }).click();
  await desk.waitForURL(/\/validations\/[^/]+$/);
  await desk.getByRole("heading", { name: "Validation Decision" }).waitFor();
  return { solveUrl, reviewUrl: desk.url() };
}

const HOSTILE_TITLE = "Crash when `limit` is `0`";
const HOSTILE_BODY = [
  "Steps: call **paginate** with a [documented limit](https://example.com/docs).",
  "",
  "<script>window.__pwned = 'script'</script>",
  '<img src="x" onerror="window.__pwned = \'onerror\'">',
  "[click me](javascript:window.__pwned='link')",
  "",
  "- [ ] add a test",
  "",
  "```ts",
  "paginate(items, { limit: 0 });",
  "```",
].join("\n");

describe("a new user's first walk", () => {
  it("keeps the repository grant across sign-out and sign-in", async () => {
    await signIn(desk, "octocat");
    await authorizeRepositories(desk, "octocat");
    await toast(desk, "Repository access authorized successfully!");
    await desk.getByRole("button", { name: "Sync octocat/todo-api" }).click();
    await toast(desk, "Repository synced successfully");

    await desk.getByRole("button", { name: /User menu for octocat/ }).click();
    await desk.getByRole("menuitem", { name: "Logout" }).click();
    await desk.waitForURL(`${e2e.stack.url}/`);
    await signIn(desk, "octocat");
    await desk.goto("/repositories");
    await desk.getByRole("button", { name: "Sync octocat/todo-api" }).waitFor();
    expect(await desk.getByRole("link", { name: "Authorize repository access" }).count()).toBe(0);
    await sharePhoneSession(desk, phone);
  });

  it("renders issue markdown safely, with inline code in titles", async () => {
    e2e.github.addIssues("octocat", "todo-api", [{ title: HOSTILE_TITLE, body: HOSTILE_BODY }]);
    await fetchIssues(desk);
    for (const [page, width] of both()) {
      await openSolve(page, HOSTILE_TITLE);
      const heading = page.getByRole("heading", { level: 1, name: /^Crash when/ });
      await heading.waitFor();
      expect(await heading.locator("code").allTextContents()).toEqual(["limit", "0"]);
      const body = page.getByRole("region", { name: "Issue description" });
      await body.locator("strong", { hasText: "paginate" }).waitFor();
      expect(await body.locator("pre code").textContent()).toContain("paginate(items, { limit: 0 });");
      expect(await body.locator('input[type="checkbox"]').count()).toBe(1);
      const link = body.getByRole("link", { name: "documented limit" });
      expect(await link.getAttribute("target")).toBe("_blank");
      expect(await link.getAttribute("rel")).toBe("noopener noreferrer nofollow");
      expect(await body.locator("script, [onerror]").count()).toBe(0);
      expect(await body.locator('a[href^="javascript:"]').count()).toBe(0);
      expect(await body.textContent()).not.toContain("<script>");
      expect(await page.evaluate(() => (window as unknown as { __pwned?: string }).__pwned)).toBeUndefined();
      await screenshot(page, `walk-markdown-${width}`);
      // The command palette shows the title's inline code as code, not as raw backticks.
      await page.keyboard.press("Control+k");
      const palette = page.getByRole("dialog", { name: "Command palette" });
      await palette.waitFor();
      await page.keyboard.type("Crash when");
      const option = palette.getByRole("option", { name: /Crash when/ });
      await option.locator("code").nth(1).waitFor(); // the palette's results arrive after the typing
      expect(await option.locator("code").allTextContents()).toEqual(["limit", "0"]);
      expect(await option.textContent()).not.toContain("`");
      await page.keyboard.press("Escape");
    }
  });

  it("says a pull request is already open, links it, and lists the last changed issues first", async () => {
    const title = "Whitespace-only titles are accepted";
    const { solveUrl, reviewUrl } = await solveAndReview(title);
    await desk.getByRole("button", { name: "Approve & Create PR" }).click();
    await toast(desk, "PR Created Successfully!");
    const pr = e2e.github.listPulls("octocat", "todo-api").find((p) => p.state === "open");
    expect(pr).toBeDefined();
    for (const [page, width] of both()) {
      // The approved solution says where it went and offers no more review actions.
      await page.goto(reviewUrl);
      await page.getByText(`Approved → PR #${pr?.number} (draft)`).waitFor();
      expect(await page.getByRole("button", { name: "Approve & Create PR" }).count()).toBe(0);
      expect(await page.getByRole("button", { name: /^Edit This File/ }).count()).toBe(0);
      // The PR body counts each file's lines as the diff header shows them (it said "11 changed lines" for +9 −1).
      await page.locator("[data-filename]").first().waitFor();
      for (const file of await page.locator("[data-filename]").all()) {
        const name = await file.getAttribute("data-filename");
        const added = await file
          .getByText(/^\+\d+$/)
          .first()
          .textContent();
        const removed = (
          await file
            .getByText(/^-\d+$/)
            .first()
            .textContent()
        )?.slice(1);
        expect(pr?.body).toMatch(
          new RegExp(`\`${name}\` \\((added|modified|deleted), \\${added} −${removed} lines\\)`),
        );
      }
      await screenshot(page, `walk-approved-${width}`);

      // The issue moved to the Closed tab; open its solve page as a bookmark would.
      await page.goto(solveUrl);
      // Pull requests open as drafts by default; every place that shows it says so.
      await page.getByText("A draft pull request for this issue is already open.").waitFor();
      // A second pull request would be refused, so no Generate is offered; the notice says how to change the open one.
      await page.getByText("Update it on GitHub, or close it there to generate a new solution").waitFor();
      expect(await page.getByRole("button", { name: /^Generate/ }).count()).toBe(0);
      const link = page.getByRole("link", { name: `View pull request #${pr?.number}` });
      expect(await link.getAttribute("href")).toBe(pr?.htmlUrl);
      await screenshot(page, `walk-open-pr-${width}`);

      await page.goto("/dashboard");
      const recent = page.getByRole("region", { name: "Recent Activity" }).getByRole("listitem");
      await recent.first().waitFor();
      expect(await recent.first().textContent()).toContain(title);
      expect(
        await recent
          .first()
          .getByRole("link", { name: `PR #${pr?.number} draft` })
          .getAttribute("href"),
      ).toBe(pr?.htmlUrl);
      await screenshot(page, `walk-dashboard-${width}`);

      await page.goto("/pull-requests");
      await page.getByText(`#${pr?.number} · octocat/todo-api`).waitFor();
      expect(await page.getByText("draft", { exact: true }).count()).toBe(1);
      await screenshot(page, `walk-pull-requests-${width}`);
    }
  });

  it("shows one not-found message with a way back to the list", async () => {
    const missing = "00000000-0000-4000-8000-000000000000";
    for (const [page, width] of both()) {
      for (const [path, message, back, list] of [
        [`/issues/${missing}/solve`, "Issue not found", "Back to Issues", /\/issues$/],
        [`/validations/${missing}`, "Solution not found", "Back to Validations", /\/validations$/],
      ] as const) {
        await page.goto(path);
        await page.getByText(message).first().waitFor();
        expect(await page.getByText(message).count()).toBe(1);
        await screenshot(page, `walk-not-found-${path.split("/")[1]}-${width}`);
        await page.getByRole("link", { name: back }).click();
        await page.waitForURL(list);
      }
    }
  });

  it("places toasts where they hide no top-bar control", async () => {
    for (const [page, width] of both()) {
      await page.goto("/repositories");
      await page.getByRole("button", { name: "Sync octocat/todo-api" }).click();
      const shown = page.locator("[data-sonner-toast]").filter({ hasText: "Repository synced successfully" }).first();
      await shown.waitFor({ timeout: 30_000 });
      // Past its entry animation (a phone's slides in from above): where it stays while it shows.
      await shown.evaluate((el) => Promise.all(el.getAnimations().map((a) => a.finished)));
      const box = await shown.boundingBox();
      const controls = await page.locator("header").first().locator("button, input, a").all();
      expect(controls.length).toBeGreaterThan(0);
      for (const control of controls) {
        const c = await control.boundingBox();
        if (!box || !c || !(await control.isVisible())) continue;
        const name = `${(await control.getAttribute("aria-label")) ?? (await control.textContent())} at ${width}`;
        const overlaps =
          box.x < c.x + c.width && c.x < box.x + box.width && box.y < c.y + c.height && c.y < box.y + box.height;
        // Wide screens: beside the content, clear of the bar. Phones: over the bar (the bottom is
        // where a thumb just pressed), and every control of the bar still takes a tap through it.
        if (width === "1280") expect(overlaps, `toast covers ${name}`).toBe(false);
        else
          expect(
            await control.evaluate((el) => {
              const r = el.getBoundingClientRect();
              return el.contains(document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2));
            }),
            `toast blocks ${name}`,
          ).toBe(true);
      }
      await screenshot(page, `walk-toast-${width}`);
    }
  });

  it("draws tab rows without a vertical scrollbar", async () => {
    for (const [page, width] of both()) {
      for (const path of ["/issues", "/pull-requests", "/profile-settings"]) {
        await page.goto(path);
        const tabs = page.getByRole("tablist").first();
        await tabs.waitFor();
        const overflowY = await tabs.evaluate((el) => el.scrollHeight - el.clientHeight);
        expect(overflowY, `${path} at ${width}`).toBe(0);
      }
    }
  });

  it("offers the sandbox's example issues on /contribute", async () => {
    for (const [page, width] of both()) {
      await page.goto("/contribute");
      const example = page.getByRole("button", { name: "https://github.com/hubot/markdown-lint/issues/2" });
      await example.waitFor();
      await screenshot(page, `walk-contribute-${width}`);
      await example.click();
      await page.getByRole("heading", { name: /heading-increment misses a jump/ }).waitFor();
    }
  });

  it("links to the GitHub stand-in, which serves the pages and avatars behind every link", async () => {
    const standIn = e2e.stack.sandboxes.github?.url ?? "missing";
    for (const [page, width] of both()) {
      await page.goto("/contribute");
      await page.getByRole("button", { name: "https://github.com/hubot/markdown-lint/issues/3" }).click();
      const view = page.getByRole("link", { name: "View on GitHub" });
      await view.waitFor();
      expect(await view.getAttribute("href")).toMatch(new RegExp(`^${standIn}/hubot/markdown-lint/issues/3$`));
      const [issuePage] = await Promise.all([page.waitForEvent("popup"), view.click()]);
      await issuePage.getByRole("heading", { name: /trailing-spaces ignores trailing tabs/ }).waitFor();
      await issuePage.close();

      // The signed-in user's avatar comes from the stand-in and loads under the app's CSP.
      await page.goto("/dashboard");
      // Syncs since the pull request changed nothing on GitHub, so that issue is still the last changed.
      const recent = page.getByRole("region", { name: "Recent Activity" }).getByRole("listitem");
      await recent.first().waitFor();
      expect(await recent.first().textContent()).toContain("Whitespace-only titles are accepted");
      // At phone width the user menu (with the avatar) lives in the navigation drawer.
      if (page === phone) await page.getByRole("button", { name: "Open menu" }).click();
      const avatar = page.locator(`img[src^="${standIn}/avatars/"]`).filter({ visible: true }).first();
      await avatar.waitFor();
      await expect
        .poll(() => avatar.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0))
        .toBe(true);
      expect(await page.locator('img[src*="githubusercontent.com"]').count()).toBe(0);
      await screenshot(page, `walk-avatar-${width}`);
    }
  });

  it("says repository access was revoked, with the authorize button, when GitHub lost the grant", async () => {
    const { reviewUrl: review } = await solveAndReview("Todos due today are already marked overdue");
    e2e.github.revokeGrant("octocat");
    await desk.context().clearCookies();
    await signIn(desk, "octocat");
    await desk.goto(review);
    await desk.getByRole("button", { name: "Approve & Create PR" }).click();
    const alert = desk.getByRole("alert").filter({ hasText: "Repository access was revoked: authorize again" });
    await alert.waitFor({ timeout: 30_000 });
    await alert.getByRole("link", { name: "Authorize repository access" }).waitFor();
    expect(await desk.getByText(/not found on GitHub/).count()).toBe(0);
    await screenshot(desk, "walk-revoked-1280");
  });
});
