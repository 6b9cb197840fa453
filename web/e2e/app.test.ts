import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Page, Request } from "playwright-core";
import { screenshot, seriousA11yViolations, signIn, startE2E, toast, type E2E } from "./e2e.harness";

let e2e: E2E;
let page: Page;

beforeAll(async () => {
  e2e = await startE2E("app");
  ({ page } = await e2e.newPage({ width: 360 }));
});
afterAll(async () => {
  await e2e?.stop();
});

const overflowsX = (p: Page) => p.evaluate(() => document.documentElement.scrollWidth > window.innerWidth);

async function hubotIssueUrl(title: string): Promise<string> {
  const gh = e2e.stack.sandboxes.github;
  const token = e2e.github.issueToken("hubot", ["repo"]);
  const res = await fetch(`${gh?.url}/repos/hubot/markdown-lint/issues?state=open&per_page=100`, {
    headers: { authorization: `Bearer ${token}` },
  });
  const issues = (await res.json()) as Array<{ number: number; title: string }>;
  const found = issues.find((i) => i.title === title);
  if (!found) throw new Error(`no open issue "${title}" in hubot/markdown-lint`);
  return `https://github.com/hubot/markdown-lint/issues/${found.number}`;
}

describe("the web app at 360 px wide", () => {
  it("sends an unauthenticated visit of a protected route to sign-in after checking, keeping the page asked for", async () => {
    const { page: p } = await e2e.newPage();
    await p.route("**/api/auth/session", async (r) => {
      await new Promise((res) => setTimeout(res, 600));
      await r.continue();
    });
    await p.goto("/validations");
    await p.getByText("Checking authentication...").waitFor();
    await p.waitForURL(`${e2e.stack.url}/auth?next=%2Fvalidations`);
    await p.getByRole("heading", { name: "Sign in to Fixloop" }).waitFor();
    await p.close();
  });

  it("renders the public pages accessibly without horizontal scrolling", async () => {
    for (const [path, name, heading] of [
      ["/", "landing", /Resolve GitHub issues with AI/],
      ["/auth", "auth", "Sign in to Fixloop"],
      ["/pricing", "pricing", "Plans and pricing"],
    ] as const) {
      await page.goto(path);
      await page.getByRole("heading", { name: heading }).waitFor();
      expect(await overflowsX(page), `${path} overflows`).toBe(false);
      expect(await seriousA11yViolations(page), path).toEqual([]);
      await screenshot(page, `${name}-360`);
    }
  });

  it("imports another account's issue pasted on the landing page: sign-in, preview, fork", async () => {
    const url = await hubotIssueUrl("heading-increment misses a jump from # to ###");
    await page.goto("/");
    await page.getByLabel("Paste GitHub Issue URL").fill(url);
    await page.getByRole("button", { name: "Import Issue" }).click();
    await page.waitForURL(/\/auth$/);
    expect(await page.evaluate(() => localStorage.getItem("pendingIssueUrl"))).toBe(url);

    await page.getByRole("link", { name: "Continue with GitHub" }).click();
    await page.getByRole("button", { name: "Authorize as octocat" }).click();
    await page.waitForURL(/\/contribute$/);
    await page.getByRole("heading", { name: /heading-increment misses a jump/ }).waitFor();
    await page.getByText("Fork Required.").waitFor();
    expect(await page.evaluate(() => localStorage.getItem("pendingIssueUrl"))).toBeNull();
    expect(await seriousA11yViolations(page)).toEqual([]);
    await screenshot(page, "contribute-preview-360");

    // Forking needs the repository grant, asked for right in the preview.
    expect(await page.getByRole("button", { name: "Import & Solve with AI" }).isDisabled()).toBe(true);
    await page.getByRole("link", { name: "Authorize repository access" }).click();
    await page.getByRole("button", { name: "Authorize as octocat" }).click();
    await toast(page, "Repository access authorized successfully!");
    await page.goto("/contribute");
    await page.getByLabel("GitHub issue URL").fill(url);
    await page.getByRole("button", { name: "Preview Issue" }).click();
    await page.getByRole("button", { name: "Import & Solve with AI" }).click();
    await toast(page, "Issue imported successfully!");
    await toast(page, "Fork created: octocat/markdown-lint");
    // Import & Solve starts the solve: the page shows the live run.
    await page.waitForURL(/\/issues\/[^/]+\/solve\?run=/);
    await page.getByRole("heading", { name: /heading-increment misses a jump/ }).waitFor();
    const fork = await fetch(`${e2e.stack.sandboxes.github?.url}/repos/octocat/markdown-lint`, {
      headers: { authorization: `Bearer ${e2e.github.issueToken("octocat", ["repo"])}` },
    });
    expect(((await fork.json()) as { fork: boolean }).fork).toBe(true);
    expect(await overflowsX(page)).toBe(false);
    await screenshot(page, "solve-360");
  });

  it("rejects a repository URL on the contribute page with the spec's message", async () => {
    await page.goto("/contribute");
    await page.getByLabel("GitHub issue URL").fill("https://github.com/hubot/markdown-lint");
    await page.getByRole("button", { name: "Preview Issue" }).click();
    await page.getByText("Please provide a GitHub issue URL, not just a repository URL").waitFor();
    await page.getByLabel("GitHub issue URL").fill("   ");
    await page.getByRole("button", { name: "Preview Issue" }).click();
    await page.getByText("Please enter a GitHub issue URL").waitFor();
  });

  it("asks to log in first when repository authorization starts after the session ended", async () => {
    const { context, page: p } = await e2e.newPage();
    await signIn(p, "hubot");
    await p.goto("/repositories");
    await p.getByRole("link", { name: "Authorize repository access" }).waitFor();
    await context.clearCookies();
    await p.getByRole("link", { name: "Authorize repository access" }).click();
    await toast(p, "Please login first");
    expect(p.url()).not.toContain("/api/auth/github/repos");
    await p.close();
  });

  it("shows the signed-in pages accessibly at 360 px", async () => {
    for (const [path, name, heading] of [
      ["/dashboard", "dashboard-360", "Dashboard"],
      ["/issues", "issues-360", "Issues"],
      ["/validations", "validations-360", "Pending Validations"],
      ["/pull-requests", "pull-requests-360", "Pull Requests"],
      ["/contribute", "contribute-360", "Contribute to Open Source"],
      ["/profile-settings", "profile-settings-360", "Profile Settings"],
    ] as const) {
      await page.goto(path);
      await page.getByRole("heading", { name: heading, exact: true }).waitFor();
      await page.waitForLoadState("networkidle");
      expect(await overflowsX(page), `${path} overflows`).toBe(false);
      expect(await seriousA11yViolations(page), path).toEqual([]);
      await screenshot(page, name);
    }
    await page.getByText("Member Since").waitFor();
    await page.getByTestId("success-basis").count();
  });

  it("creates an API token shown once, then revokes it", async () => {
    await page.goto("/profile-settings");
    await page.getByRole("tab", { name: "Settings" }).click();
    await page.getByLabel("Token name").fill("ci");
    await page.getByRole("button", { name: "Create token" }).click();
    const secret = (await page.getByTestId("token-secret").textContent()) ?? "";
    expect(secret.length).toBeGreaterThan(20);
    const me = await page.request.get("/api/auth/me", { headers: { authorization: `Bearer ${secret}`, cookie: "" } });
    expect(me.status()).toBe(200);
    await page.reload();
    await page.getByRole("tab", { name: "Settings" }).click();
    await page.getByRole("button", { name: "Revoke token ci" }).click();
    await toast(page, "Token revoked");
    expect(await page.getByTestId("token-secret").count()).toBe(0);
  });

  it("keeps the profile tab in the URL at 390 and 1280 px: ?tab=usage opens Usage, reload keeps the tab, Back returns", async () => {
    for (const width of [390, 1280]) {
      const { page: p } = await e2e.newPage({ width });
      await signIn(p, "octocat");
      await p.goto("/profile-settings?tab=usage");
      await p.getByRole("tab", { name: "Usage", selected: true }).waitFor();
      await p.getByRole("tab", { name: "Billing" }).click();
      await p.waitForURL(/\/profile-settings\?tab=billing$/);
      await p.reload();
      await p.getByRole("tab", { name: "Billing", selected: true }).waitFor();
      await p.goBack();
      await p.waitForURL(/\/profile-settings\?tab=usage$/);
      await p.getByRole("tab", { name: "Usage", selected: true }).waitFor();
      await p.getByRole("tab", { name: "Overview" }).click();
      await p.waitForURL(/\/profile-settings$/);
      await screenshot(p, `profile-overview-${width}`);
      await p.context().close();
    }
  });

  it("answers an unknown address with HTTP 404 and a not-found page under the app's header, at 390 and 1280 px", async () => {
    for (const width of [390, 1280]) {
      const { page: p } = await e2e.newPage({ width });
      const res = await p.goto("/no-such-page");
      expect(res?.status()).toBe(404);
      await p.getByRole("heading", { name: "Page not found" }).waitFor();
      await p.getByRole("link", { name: "Fixloop home" }).waitFor();
      expect(await overflowsX(p)).toBe(false);
      await screenshot(p, `not-found-${width}`);
      await p.context().close();
    }
  });

  it("sends the landing page's scripts and styles compressed, hashed ones cached for good, at 390 and 1280 px", async () => {
    for (const width of [390, 1280]) {
      // A new context: nothing cached, as a first visit.
      const { page: p } = await e2e.newPage({ width });
      const loaded: Array<{ url: string; encoding: string; cache: string; wire: number; raw: number }> = [];
      const pending: Array<Promise<void>> = [];
      const onFinished = (req: Request) => {
        pending.push(
          (async () => {
            const res = await req.response();
            if (!res) return;
            const headers = await res.allHeaders();
            const raw = (await res.body()).length;
            const { responseBodySize } = await req.sizes();
            loaded.push({
              url: req.url(),
              encoding: headers["content-encoding"] ?? "",
              cache: headers["cache-control"] ?? "",
              wire: responseBodySize,
              raw,
            });
          })(),
        );
      };
      p.on("requestfinished", onFinished);
      await p.goto("/");
      await p.waitForLoadState("networkidle");
      // A late request (a favicon) must not be read after the context closes.
      p.off("requestfinished", onFinished);
      await Promise.all(pending);
      const main = loaded.find((l) => /\/assets\/index-[\w-]+\.js$/.test(l.url));
      expect(main, "the main chunk").toBeDefined();
      const code = loaded.filter((l) => /\.(js|css)$/.test(new URL(l.url).pathname));
      for (const l of code) {
        // Chromium asks for brotli over HTTPS only; over plain http it gets the gzip twin.
        if (l.raw > 1024) expect(l.encoding, l.url).toMatch(/^(br|gzip)$/);
        if (/\/assets\//.test(l.url)) expect(l.cache, l.url).toContain("immutable");
      }
      const sum = (k: "wire" | "raw", of = loaded) => of.reduce((t, l) => t + l[k], 0);
      // Figures for the record: the main chunk and the whole cold load, on the wire and decoded.
      console.log(
        `cold landing ${width} px: main chunk ${main?.wire} B ${main?.encoding} / ${main?.raw} B raw; ` +
          `${loaded.length} responses ${sum("wire")} B on the wire / ${sum("raw")} B raw`,
      );
      expect(sum("wire", code)).toBeLessThan(sum("raw", code) / 2);
      await p.context().close();
    }
  });

  it("collapses the desktop rail after a click (1280 px) and closes the phone drawer after a user-menu choice (390 px)", async () => {
    const { page: desk } = await e2e.newPage({ width: 1280 });
    await signIn(desk, "octocat");
    const rail = desk.getByRole("navigation", { name: "Main" });
    await rail.getByRole("link", { name: "Pull Requests" }).click();
    await desk.waitForURL(/\/pull-requests$/);
    await desk.mouse.move(900, 400);
    await expect.poll(() => rail.evaluate((el) => el.getBoundingClientRect().width)).toBe(56);
    await screenshot(desk, "rail-after-click-1280");
    // Keyboard focus still opens it.
    await desk.keyboard.press("Shift+Tab");
    await rail.getByRole("link").first().focus();
    await desk.keyboard.press("Tab");
    await expect.poll(() => rail.evaluate((el) => el.getBoundingClientRect().width)).toBe(224);
    await desk.context().close();

    const { page: phone } = await e2e.newPage({ width: 390 });
    await signIn(phone, "octocat");
    await phone.getByRole("button", { name: "Open menu" }).click();
    const drawer = phone.getByRole("dialog", { name: "Menu" });
    await drawer.getByRole("button", { name: /User menu for octocat/ }).click();
    await drawer.getByRole("menuitem", { name: "Profile Settings" }).click();
    await phone.waitForURL(/\/profile-settings$/);
    await expect.poll(() => drawer.isVisible()).toBe(false);
    await screenshot(phone, "drawer-after-user-menu-390");
    await phone.context().close();
  });

  it("keeps the theme choice across reloads", async () => {
    await page.goto("/dashboard");
    await page.getByRole("radio", { name: "Dark" }).click();
    expect(await page.evaluate(() => document.documentElement.classList.contains("dark"))).toBe(true);
    await page.reload();
    await page.getByRole("heading", { name: "Dashboard", exact: true }).waitFor();
    expect(await page.evaluate(() => document.documentElement.classList.contains("dark"))).toBe(true);
    expect(await page.evaluate(() => localStorage.getItem("theme-preference"))).toBe("dark");
    expect(await seriousA11yViolations(page)).toEqual([]);
    await screenshot(page, "dashboard-dark-360");
    await page.getByRole("radio", { name: "Light" }).click();
    expect(await page.evaluate(() => document.documentElement.classList.contains("dark"))).toBe(false);
  });

  it("opens the command palette with Ctrl+K and the shortcuts dialog with ?", async () => {
    const { page: p } = await e2e.newPage();
    await p.context().addCookies(await page.context().cookies());
    await p.goto("/dashboard");
    await p.getByRole("heading", { name: "Dashboard", exact: true }).waitFor();
    await p.keyboard.press("Control+k");
    const palette = p.getByRole("dialog", { name: "Command palette" });
    await palette.waitFor();
    await p.keyboard.type("pull req");
    await p.keyboard.press("Enter");
    await p.waitForURL(/\/pull-requests$/);
    await p.keyboard.press("Shift+?");
    await p.getByRole("dialog", { name: "Keyboard Shortcuts" }).getByText("Open the command palette").waitFor();
    await p.keyboard.press("Escape");
    await p.keyboard.press("g");
    await p.keyboard.press("i");
    await p.waitForURL(/\/issues$/);
    await p.getByRole("button", { name: /User menu for octocat/ }).click();
    await p.getByRole("menuitem", { name: "Preferences" }).click();
    await p.getByRole("dialog", { name: "Preferences" }).getByRole("button", { name: "Save" }).click();
    await toast(p, "Preferences saved");
    await screenshot(p, "issues-desktop");
    await p.getByRole("button", { name: /User menu for octocat/ }).click();
    await p.getByRole("menuitem", { name: "Logout" }).click();
    await p.waitForURL(`${e2e.stack.url}/`);
    expect((await p.request.get("/api/auth/me")).status()).toBe(401);
  });
});
