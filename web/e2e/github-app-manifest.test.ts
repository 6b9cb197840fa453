import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { screenshot, seriousA11yViolations, signIn, startE2E, type E2E } from "./e2e.harness";

// An operator creates Fixloop's GitHub App from /ops with GitHub's manifest flow, on the stand-in,
// as `npm start` runs it: the created App replaces the stand-in's own one at once.
let e2e: E2E;
let page: Page;
let phone: Page;

beforeAll(async () => {
  e2e = await startE2E("github-app", { ADMIN_GITHUB_LOGINS: "octocat" });
  const desk = await e2e.newPage();
  page = desk.page;
  await signIn(page, "octocat");
  const small = await e2e.newPage({ width: 390 });
  await small.context.addCookies(await desk.context.cookies());
  phone = small.page;
});
afterAll(async () => {
  await e2e?.stop();
});

describe("Operations → GitHub App", () => {
  it("creates the App on GitHub from its manifest and uses it at once, at 1280 and 390 px", async () => {
    await page.goto("/ops");
    await page.getByRole("link", { name: "GitHub App" }).click();
    await page.waitForURL(/\/ops\/github-app$/);
    const inUse = page.getByRole("region", { name: "In use" });
    await expect.poll(() => inUse.textContent()).toContain("fixloop-sandbox");
    expect(await inUse.textContent()).toContain("From the environment");
    await screenshot(page, "github-app-before-1280");
    expect(await seriousA11yViolations(page)).toEqual([]);

    const form = page.getByRole("region", { name: "Create the GitHub App" });
    expect(await form.textContent()).toContain("contents: write");
    await form.getByLabel("App name").fill("Fixloop E2E");
    await form.getByRole("button", { name: "Create the GitHub App on GitHub" }).click();
    // GitHub's page shows what the manifest asks for before anything is created.
    await page.getByRole("heading", { name: "Create GitHub App “Fixloop E2E”" }).waitFor();
    const onGithub = (await page.textContent("body")) ?? "";
    expect(onGithub).toContain("write access to contents");
    expect(onGithub).toContain(`${e2e.stack.url}/api/github/webhook`);
    await page.getByRole("button", { name: "Create GitHub App for octocat" }).click();

    await page.waitForURL(/\/ops\/github-app\?created=fixloop-e2e-/);
    const slug = new URL(page.url()).searchParams.get("created") ?? "";
    await page.getByRole("status").filter({ hasText: "was created" }).waitFor();
    await expect.poll(() => inUse.textContent()).toContain(slug);
    expect(await inUse.textContent()).toContain("Created on this page");
    expect(await inUse.getByRole("link", { name: "Install it" }).getAttribute("href")).toBe(
      `${e2e.stack.sandboxes.github?.url}/apps/${slug}/installations/new`,
    );
    // With an App made, creating another is folded away.
    expect(await form.getByLabel("App name").isVisible()).toBe(false);
    await form.getByText("Create another GitHub App").waitFor();
    await screenshot(page, "github-app-created-1280");
    expect(await seriousA11yViolations(page)).toEqual([]);

    await phone.goto(`/ops/github-app?created=${slug}`);
    await phone.getByRole("status").filter({ hasText: "was created" }).waitFor();
    await phone.getByRole("region", { name: "In use" }).getByText(slug).first().waitFor();
    const overflow = await phone.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    await screenshot(phone, "github-app-created-390");

    // The key and secrets GitHub handed over appear nowhere the operator or a log reader sees.
    const app = e2e.github.app(slug);
    const secrets = [app.webhookSecret ?? "", app.clientSecret, ...app.pem.split("\n").filter((l) => l.length > 40)];
    const seen = [await page.content(), await phone.content(), e2e.logs.join("\n")].join("\n");
    for (const s of secrets) expect(seen.includes(s)).toBe(false);
  });

  it("tells the operator why GitHub's answer was refused when the state is not this session's", async () => {
    await phone.goto("/api/ops/github-app/manifest/callback?code=0123456789&state=forged-state");
    await phone.waitForURL(/error=github_app\.state_invalid/);
    await phone.getByRole("alert").filter({ hasText: "did not match a request from this browser session" }).waitFor();
    await screenshot(phone, "github-app-refused-390");
  });
});
