import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import {
  authorizeRepositories,
  openSolve,
  screenshot,
  seriousA11yViolations,
  startE2E,
  toast,
  type E2E,
} from "./e2e.harness";
import { atBothWidths, sharePhoneSession } from "./walk.helpers";

// The third walk (issue #48): deep links through sign-in, one solve per issue at a time, and the
// label trigger tried on the GitHub stand-in's issue page, each at 1280 and 390 px.
let e2e: E2E;
let desk: Page;
let phone: Page;
const REPO = "octocat/todo-api";
const TWICE = "Whitespace-only titles are accepted";

beforeAll(async () => {
  e2e = await startE2E("walk3-entry");
  ({ page: desk } = await e2e.newPage({ width: 1280 }));
  ({ page: phone } = await e2e.newPage({ width: 390 }));
});
afterAll(async () => {
  await e2e?.stop();
});

const overflow = (p: Page) =>
  p.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);

/** Through the stand-in's authorize page, from the sign-in page the app is on. */
async function authorizeAs(p: Page, login: string) {
  await p.getByRole("heading", { name: "Sign in to Fixloop" }).waitFor();
  await p.getByRole("link", { name: "Continue with GitHub" }).click();
  await p.getByRole("button", { name: `Authorize as ${login}` }).click();
}

describe("deep links survive sign-in", () => {
  it("opening an app page signed out goes through sign-in and back to that page (1280 and 390 px)", async () => {
    for (const [p, w, path, heading] of [
      [desk, "1280", "/validations", "Pending Validations"],
      [phone, "390", "/profile-settings?tab=usage", "Profile Settings"],
    ] as const) {
      await p.goto(path);
      await p.waitForURL(`${e2e.stack.url}/auth?next=${encodeURIComponent(path)}`);
      await p.getByRole("heading", { name: "Sign in to Fixloop" }).waitFor();
      await screenshot(p, `deep-link-sign-in-${w}`);
      await authorizeAs(p, "octocat");
      await p.waitForURL(`${e2e.stack.url}${path}`);
      await p.getByRole("heading", { name: heading, exact: true }).waitFor();
      await screenshot(p, `deep-link-back-${w}`);
      expect(await overflow(p)).toBeLessThanOrEqual(0);
    }
  });

  it("never leaves the app after sign-in, whatever the page asked for says", async () => {
    const { page: p, context } = await e2e.newPage({ width: 390 });
    const away: string[] = [];
    p.on("request", (r) => {
      if (new URL(r.url()).hostname.includes("evil")) away.push(r.url());
    });
    const attempts = [
      "//evil.example",
      "https://evil.example",
      "/\\evil.example",
      "/\t/evil.example",
      "%2F%2Fevil.example",
      "/%2F%2Fevil.example",
      "/%5Cevil.example",
      "https:%2F%2Fevil.example",
      "/api/auth/logout",
    ];
    for (const next of attempts) {
      await context.clearCookies();
      await p.goto(`/auth?next=${encodeURIComponent(next)}`);
      await authorizeAs(p, "octocat");
      await p.waitForURL(`${e2e.stack.url}/dashboard`);
      await p.getByRole("heading", { name: "Dashboard" }).waitFor();
    }
    // Signed in, the sign-in page with a foreign `next` opens the dashboard too.
    await p.goto(`/auth?next=${encodeURIComponent("//evil.example")}`);
    await p.waitForURL(`${e2e.stack.url}/dashboard`);
    // A value written into the tab's storage is checked again before it is followed.
    await context.clearCookies();
    await p.goto("/auth?error=oauth.denied");
    await p.evaluate(() => sessionStorage.setItem("fixloop.returnTo", "//evil.example"));
    await authorizeAs(p, "octocat");
    await p.waitForURL(`${e2e.stack.url}/dashboard`);
    expect(away).toEqual([]);
    await p.close();
  });
});

describe("one solve per issue at a time", () => {
  it("asks before solving an issue whose solution awaits review, and tells the pending cards apart (1280 and 390 px)", async () => {
    await authorizeRepositories(desk, "octocat");
    await toast(desk, "Repository access authorized successfully!");
    await desk.getByRole("button", { name: `Sync ${REPO}` }).click();
    await toast(desk, "Repository synced successfully");
    await desk.getByRole("button", { name: `Fetch issues of ${REPO}` }).click();
    await toast(desk, /^Fetched \d+ issues$/);

    await openSolve(desk, TWICE);
    const solveUrl = desk.url();
    await desk.getByRole("button", { name: "Generate Solution" }).click();
    await desk.getByTestId("solution-result").waitFor({ timeout: 90_000 });
    const firstReview = await desk.getByRole("link", { name: "Review & Validate" }).getAttribute("href");

    // Generate again: it asks, and Cancel starts nothing.
    await desk.goto(solveUrl);
    await desk.getByRole("note", { name: "Solution awaiting review" }).waitFor();
    await desk.getByRole("button", { name: "Generate Solution" }).click();
    const dialog = desk.getByRole("dialog", { name: "A solution awaits review" });
    await dialog.getByRole("button", { name: "Solve again" }).waitFor();
    await screenshot(desk, "solve-awaiting-review-ask-1280");
    expect(await seriousA11yViolations(desk)).toEqual([]);
    await dialog.getByRole("button", { name: "Cancel" }).click();
    await dialog.waitFor({ state: "hidden" });
    expect(desk.url()).not.toMatch(/[?&]run=/);

    // Open it: the waiting solution.
    await desk.getByRole("button", { name: "Generate Solution" }).click();
    await dialog.getByRole("link", { name: "Open it" }).click();
    await desk.waitForURL(`${e2e.stack.url}${firstReview}`);

    // The phone asks the same.
    await sharePhoneSession(desk, phone);
    await phone.goto(solveUrl);
    await phone.getByRole("button", { name: "Generate Solution" }).click();
    const phoneDialog = phone.getByRole("dialog", { name: "A solution awaits review" });
    await phoneDialog.getByRole("link", { name: "Open it" }).waitFor();
    await screenshot(phone, "solve-awaiting-review-ask-390");
    expect(await overflow(phone)).toBeLessThanOrEqual(0);
    await phoneDialog.getByRole("button", { name: "Cancel" }).click();

    // Solve again: a second solution, beside the first.
    await desk.goto(solveUrl);
    await desk.getByRole("button", { name: "Generate Solution" }).click();
    await dialog.getByRole("button", { name: "Solve again" }).click();
    await desk.waitForURL(/[?&]run=/);
    await desk.getByTestId("solution-result").waitFor({ timeout: 90_000 });

    for (const [p, w] of atBothWidths(desk, phone)) {
      await p.goto("/validations");
      const cards = p.getByRole("listitem").filter({ hasText: TWICE });
      await expect.poll(() => cards.count()).toBe(2);
      const facts = await cards.getByTestId("pending-facts").allTextContents();
      for (const f of facts) {
        expect(f).toMatch(new RegExp(`^${REPO}#\\d+Created .+1 candidateRevision 1Solution [12] of 2 for this issue$`));
      }
      // Newest first: the second solution, then the first; no two cards read the same.
      expect(facts[0]).toContain("Solution 2 of 2");
      expect(facts[1]).toContain("Solution 1 of 2");
      const times = await cards.locator("time").evaluateAll((ts) => ts.map((t) => t.getAttribute("datetime") ?? ""));
      expect(Date.parse(times[0] ?? "")).toBeGreaterThan(Date.parse(times[1] ?? ""));
      await screenshot(p, `pending-validations-two-of-one-issue-${w}`);
      expect(await overflow(p)).toBeLessThanOrEqual(0);
      expect(await seriousA11yViolations(p)).toEqual([]);
    }
  });
});

describe("the label trigger, tried offline", () => {
  it("adding the label on the stand-in's issue page delivers the webhook and starts the solve (1280 and 390 px)", async () => {
    await desk.goto("/repositories");
    const card = desk.getByRole("listitem").filter({ hasText: REPO });
    await card.getByText("Solve on label").click();
    await card.getByLabel("Solve issues labelled").check();
    await card.getByLabel("Label", { exact: true }).fill("fixloop");
    await card.getByRole("button", { name: `Save label setting of ${REPO}` }).click();
    await toast(desk, "Issues labelled fixloop will be solved");

    const title = "Completed todos reappear after a restart";
    const [n = 0] = e2e.github.addIssues("octocat", "todo-api", [
      { title, body: "Marking a todo done is lost when the server restarts.", user: "octocat" },
    ]);
    const issuePage = `${e2e.stack.sandboxes.github?.url ?? ""}/octocat/todo-api/issues/${n}`;
    await phone.goto(issuePage);
    await phone.getByRole("form", { name: "Add a label" }).waitFor();
    expect(await overflow(phone)).toBeLessThanOrEqual(0);
    await screenshot(phone, "stand-in-issue-labels-390");

    await desk.goto(issuePage);
    const form = desk.getByRole("form", { name: "Add a label" });
    expect(await form.getByLabel("As").inputValue()).toBe("octocat");
    await form.getByLabel("Label").fill("fixloop");
    await form.getByRole("button", { name: "Add label" }).click();
    await desk.waitForURL(issuePage);
    await desk.getByRole("list", { name: "Labels" }).getByText("fixloop").waitFor();
    await screenshot(desk, "stand-in-issue-labels-1280");

    // The signed issues.labeled webhook reached Fixloop: the issue is imported and its solve started by the label.
    await expect
      .poll(
        async () => {
          const res = await desk.request.get(`${e2e.stack.url}/api/issues?q=${encodeURIComponent(title)}`);
          const body = (await res.json()) as { issues?: Array<{ startedByLabel: string | null }> };
          return body.issues?.[0]?.startedByLabel ?? null;
        },
        { timeout: 30_000 },
      )
      .toBe("fixloop");
    for (const [p, w] of atBothWidths(desk, phone)) {
      await p.goto("/issues");
      const issueCard = p.getByRole("listitem").filter({ hasText: title });
      await issueCard.getByTestId("issue-run-trigger").waitFor();
      await screenshot(p, `label-trigger-started-${w}`);
    }
  });
});
