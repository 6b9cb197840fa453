import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import {
  authorizeRepositories,
  screenshot,
  seriousA11yViolations,
  signIn,
  startE2E,
  toast,
  type E2E,
} from "./e2e.harness";

let e2e: E2E;

beforeAll(async () => {
  e2e = await startE2E("github-app");
});
afterAll(async () => {
  await e2e?.stop();
});

const overflow = (p: Page) =>
  p.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);

/** The repositories the page lists, by full name, sorted. */
async function listed(p: Page): Promise<string[]> {
  const names = await p
    .getByRole("button", { name: /^Sync / })
    .evaluateAll((els) => els.map((e) => (e.getAttribute("aria-label") ?? "").replace(/^Sync /, "")));
  return names.sort();
}

/** Waits until the page lists exactly `want` (no click: the page follows on its own). */
async function waitForList(p: Page, want: string[]) {
  const deadline = Date.now() + 30_000;
  let got: string[] = [];
  while (Date.now() < deadline) {
    got = await listed(p);
    if (JSON.stringify(got) === JSON.stringify([...want].sort())) return;
    await p.waitForTimeout(250);
  }
  expect(got).toEqual([...want].sort());
}

/** On the stand-in's installation (or configuration) page: continues as `login`, selects exactly `repos`, submits. */
async function chooseRepositories(p: Page, login: string, repos: string[]) {
  await p.getByRole("link", { name: `Continue as ${login}` }).click();
  await p.getByRole("radio", { name: "Only select repositories" }).check();
  for (const box of await p.getByRole("checkbox").all()) {
    const name = (await box.getAttribute("value")) ?? "";
    if (repos.includes(name)) await box.check();
    else await box.uncheck();
  }
  await p.getByRole("button", { name: /^(Install|Save)$/ }).click();
}

describe("Fixloop as a GitHub App on the Repositories page", () => {
  it("installs on selected repositories through GitHub's page and lists exactly those, then follows changes made on GitHub (1280 and 390 px)", async () => {
    const { context, page } = await e2e.newPage();
    await signIn(page, "octocat");
    await page.goto("/repositories");
    await page.getByRole("heading", { name: "Install the GitHub App" }).waitFor();
    expect(await seriousA11yViolations(page)).toEqual([]);
    await screenshot(page, "github-app-install-1280");

    await page.getByRole("link", { name: "Install the GitHub App" }).click();
    await chooseRepositories(page, "octocat", ["octocat/todo-api", "octocat/weather-cli"]);
    await page.waitForURL(/\/repositories$/);
    await toast(page, "Fixloop's GitHub App is installed");
    await waitForList(page, ["octocat/todo-api", "octocat/weather-cli"]);
    const installations = page.getByRole("list", { name: "Installations" });
    await installations.getByText("2 selected repositories").waitFor();
    // The OAuth grant was never given: only the App writes.
    expect(await page.getByRole("link", { name: "Authorize repository access" }).count()).toBe(0);
    await screenshot(page, "github-app-installed-1280");

    // On GitHub, in another tab: weather-cli out, url-shortener in. This tab follows with no click.
    const configure = await page
      .getByRole("link", { name: "Configure the installation on octocat" })
      .getAttribute("href");
    const github = await context.newPage();
    await github.goto(configure ?? "");
    await chooseRepositories(github, "octocat", ["octocat/todo-api", "octocat/url-shortener"]);
    await waitForList(page, ["octocat/todo-api", "octocat/url-shortener"]);
    await installations.getByText("2 selected repositories").waitFor();
    await github.close();

    // Suspended on GitHub: the page says what that means and where to undo it.
    const [inst = 0] = await installationIds(page);
    e2e.github.suspendInstallation(inst, "octocat");
    await installations.getByText("Suspended", { exact: true }).waitFor({ timeout: 30_000 });
    await page.getByText(/This installation is suspended on GitHub/).waitFor();
    expect(await seriousA11yViolations(page)).toEqual([]);
    await screenshot(page, "github-app-suspended-1280");

    const { page: phone } = await e2e.newPage({ width: 390 });
    await signIn(phone, "octocat");
    await phone.goto("/repositories");
    await phone.getByText(/This installation is suspended on GitHub/).waitFor();
    await waitForList(phone, ["octocat/todo-api", "octocat/url-shortener"]);
    expect(await overflow(phone)).toBe(0);
    await screenshot(phone, "github-app-suspended-390");
    e2e.github.unsuspendInstallation(inst, "octocat");
    await phone.getByRole("list", { name: "Installations" }).getByText("Active").waitFor({ timeout: 30_000 });
  });

  it("asks a user with an OAuth grant and no installation to install the App once, at 390 and 1280 px", async () => {
    const { page: phone } = await e2e.newPage({ width: 390 });
    await signIn(phone, "hubot");
    await authorizeRepositories(phone, "hubot");
    await toast(phone, "Repository access authorized successfully!");
    // Not in the same breath as the grant just given: the way to the App is there, the prompt is not.
    await phone.getByRole("link", { name: "Install the GitHub App to choose repositories" }).waitFor();
    expect(await phone.getByRole("region", { name: "Choose the repositories Fixloop may change" }).count()).toBe(0);
    // Their next visit asks.
    await phone.goto("/repositories");
    const prompt = phone.getByRole("region", { name: "Choose the repositories Fixloop may change" });
    await prompt.waitFor();
    await prompt.getByRole("link", { name: "Install the GitHub App" }).waitFor();
    expect(await overflow(phone)).toBe(0);
    expect(await seriousA11yViolations(phone)).toEqual([]);
    await screenshot(phone, "github-app-prompt-390");

    const { page: wide } = await e2e.newPage();
    await signIn(wide, "hubot");
    await wide.goto("/repositories");
    await wide.getByRole("region", { name: "Choose the repositories Fixloop may change" }).waitFor();
    await screenshot(wide, "github-app-prompt-1280");
    await wide.getByRole("button", { name: "Not now" }).click();
    await wide.getByRole("link", { name: "Install the GitHub App to choose repositories" }).waitFor();

    // Answered once, on any device: the other one is not asked again, and the OAuth grant keeps working.
    await phone.goto("/repositories");
    await phone.getByRole("button", { name: "Sync hubot/markdown-lint" }).waitFor();
    expect(await phone.getByRole("region", { name: "Choose the repositories Fixloop may change" }).count()).toBe(0);
    await phone.getByRole("link", { name: "Install the GitHub App to choose repositories" }).waitFor();
    await screenshot(phone, "github-app-prompt-answered-390");
  });

  it("counts going to GitHub's installation page from the prompt as the answer, installed or not", async () => {
    const { page } = await e2e.newPage();
    await signIn(page, "monalisa");
    await authorizeRepositories(page, "monalisa");
    await toast(page, "Repository access authorized successfully!");
    await page.goto("/repositories");
    const prompt = page.getByRole("region", { name: "Choose the repositories Fixloop may change" });
    await prompt.getByRole("link", { name: "Install the GitHub App" }).click();
    await page.getByRole("link", { name: "Continue as monalisa" }).waitFor();
    // Back without installing: asked once, not again.
    await page.goBack();
    await page.getByRole("link", { name: "Install the GitHub App to choose repositories" }).waitFor();
    expect(await prompt.count()).toBe(0);
  });
});

/** The user's installation ids, as the API reports them to the page's session. */
async function installationIds(p: Page): Promise<number[]> {
  return p.evaluate(async () => {
    const res = await fetch("/api/github/app");
    const body = (await res.json()) as { installations: { id: number }[] };
    return body.installations.map((i) => i.id);
  });
}
