import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import {
  authorizeRepositories,
  generate as generateIn,
  openSolve as openSolveIn,
  screenshot,
  seriousA11yViolations,
  signIn,
  solveAndReview as solveAndReviewIn,
  startE2E,
  toast,
  type E2E,
} from "./e2e.harness";
import { addressReviewRoundTrip } from "./address-review.case";

let e2e: E2E;
let page: Page;

beforeAll(async () => {
  e2e = await startE2E("solve");
  ({ page } = await e2e.newPage());
  // The page's timers run on Playwright's clock: time flows as usual, and a test can run it ahead
  // to fire what is due at once (an elapsed counter's tick, a navigation put off by a timer).
  await page.clock.install();
});
afterAll(async () => {
  await e2e?.stop();
});

const stepStatus = (id: string) => page.locator(`[data-step="${id}"]`).getAttribute("data-status");

const openSolve = (title: string) => openSolveIn(page, title);
const generate = () => generateIn(page);
const solveAndReview = (title: string) => solveAndReviewIn(page, title);

describe("solving an issue of octocat's repository in the browser", () => {
  it("signs in through GitHub, authorizes repositories, syncs and fetches issues", async () => {
    await signIn(page, "octocat");
    expect(page.url()).not.toContain("token=");
    expect(await page.evaluate(() => JSON.stringify(localStorage))).not.toMatch(/token|session/i);
    await screenshot(page, "dashboard-empty");

    await authorizeRepositories(page, "octocat");
    await toast(page, "Repository access authorized successfully!");
    await expect.poll(() => page.url()).not.toContain("authorized=");
    await page.getByRole("button", { name: "Sync octocat/todo-api" }).click();
    await toast(page, "Repository synced successfully");
    await page.getByRole("button", { name: "Fetch issues of octocat/todo-api" }).click();
    await toast(page, /^Fetched \d+ issues$/);
    await screenshot(page, "repositories");
    expect(await seriousA11yViolations(page)).toEqual([]);

    await page.goto("/issues");
    await page
      .getByRole("link", { name: /^Solve with AI:/ })
      .first()
      .waitFor();
    expect(await page.getByRole("link", { name: /^Solve with AI:/ }).count()).toBeGreaterThan(2);
    await screenshot(page, "issues");
    expect(await seriousA11yViolations(page)).toEqual([]);
  });

  it("shows the five steps advancing from live events, then the diff", async () => {
    e2e.models.latency(4000);
    await openSolve("Pagination skips a todo at every page boundary");
    await generate();
    // While the model call is in flight, earlier steps are complete and later ones still pending.
    await page.locator('[data-step="generating"][data-status="running"]').waitFor({ timeout: 60_000 });
    expect(await stepStatus("analyzing")).toBe("completed");
    expect(await stepStatus("dependencies")).toBe("completed");
    expect(await stepStatus("validating")).toBe("pending");
    const elapsed = Number((await page.getByTestId("elapsed").textContent())?.replace("s", ""));
    await page.clock.runFor(1500);
    expect(Number((await page.getByTestId("elapsed").textContent())?.replace("s", ""))).toBeGreaterThan(elapsed);
    await page.getByRole("button", { name: /Gathering Context/ }).click();
    await screenshot(page, "solve-progress");
    e2e.models.latency(0);

    await page.getByTestId("solution-result").waitFor({ timeout: 90_000 });
    await toast(page, /^Solution generated successfully! \(\d+s\)$/);
    expect(await page.getByTestId("file-diff").count()).toBeGreaterThan(0);
    await screenshot(page, "solve-result");
    expect(await seriousA11yViolations(page)).toEqual([]);
  });

  it("edits a file, approves, and the pull request exists on GitHub", async () => {
    await page.getByRole("link", { name: "Review & Validate" }).click();
    await page.getByRole("heading", { name: "Risk Assessment" }).waitFor();
    await screenshot(page, "validate");
    expect(await seriousA11yViolations(page)).toEqual([]);

    const edit = page.getByRole("button", { name: /^Edit This File: / }).first();
    const filename = ((await edit.getAttribute("aria-label")) ?? "").replace("Edit This File: ", "");
    await edit.click();
    const editor = page.getByTestId("file-editor").locator(".cm-content");
    await editor.click();
    await page.keyboard.press("Control+End");
    await page.keyboard.type("\n// reviewed in the browser\nexport const unfinished = ;\n");
    await page.getByRole("button", { name: "Save Changes" }).click();
    await toast(page, "Solution modified successfully!");
    // The edit is saved; the worker's syntax check shows among the warnings, and does not block approval.
    await page.getByText(`${filename}: does not parse as`, { exact: false }).waitFor();
    await expect
      .poll(() => page.locator(`[data-filename="${filename}"]`).textContent())
      .toContain("reviewed in the browser");

    await page.getByLabel("Comments").fill("Looks right after my edit.");
    await page.getByRole("button", { name: "Approve & Create PR" }).click();
    await toast(page, "PR Created Successfully!");
    await page.waitForURL(/\/pull-requests$/, { timeout: 10_000 });
    await page
      .getByRole("heading", { name: /paginate|Pagination/i })
      .first()
      .waitFor();
    await screenshot(page, "pull-requests");
    expect(await seriousA11yViolations(page)).toEqual([]);

    const pulls = e2e.github.listPulls("octocat", "todo-api");
    expect(pulls).toHaveLength(1);
    expect(pulls[0]?.state).toBe("open");

    await page.getByRole("button", { name: /^Notifications \(\d+ unread\)$/ }).click();
    await page.getByText(`#${pulls[0]?.number} opened on octocat/todo-api`, { exact: false }).waitFor();
    expect(await page.getByRole("button", { name: "Notifications" }).count()).toBe(1);
    await page.keyboard.press("Escape");
  });

  it("resumes the live steps after a reload in the middle of a run", async () => {
    e2e.models.latency(5000);
    await openSolve("Whitespace-only titles are accepted");
    await generate();
    await page.locator('[data-step="generating"][data-status="running"]').waitFor({ timeout: 60_000 });
    const url = page.url();
    await page.reload();
    expect(page.url()).toBe(url);
    await page.locator('[data-step="analyzing"][data-status="completed"]').waitFor();
    expect(await stepStatus("validating")).not.toBe("completed");
    e2e.models.latency(0);
    await page.getByTestId("solution-result").waitFor({ timeout: 90_000 });
  });

  it("rejects a solution, says so, stays in the validations list and sends the issue back to the open tab", async () => {
    await page.getByRole("link", { name: "Review & Validate" }).click();
    await page.getByRole("heading", { name: "Validation Decision" }).waitFor();
    await page.getByRole("button", { name: "Reject" }).click();
    await toast(page, "Solution rejected");
    await page.waitForURL(/\/validations$/, { timeout: 10_000 });
    // Every timer the decision set fires now (an approval's move to the pull requests comes 2 s on).
    await page.clock.runFor(2500);
    expect(await page.evaluate(() => location.pathname)).toBe("/validations");
    expect(new URL(page.url()).pathname).toBe("/validations");
    expect(
      await page.locator("[data-sonner-toast]").filter({ hasText: "Solution validated successfully!" }).count(),
    ).toBe(0);
    await page.goto("/issues");
    await page.getByRole("link", { name: "Solve with AI: Whitespace-only titles are accepted" }).waitFor();
    expect(e2e.github.listPulls("octocat", "todo-api")).toHaveLength(1);
  });

  it("refines a solution and follows the refinement run live", async () => {
    await solveAndReview("Todos due today are already marked overdue");
    const before = page.url();
    await page.getByLabel("What should the AI change?").fill("Also add a test for a todo due later today.");
    await page.getByRole("button", { name: "Request Refinement" }).click();
    await toast(page, /^Solution refined! \(Refinement #1\)$/);
    await page.getByRole("heading", { name: "Validation Decision" }).waitFor();
    await page.getByText("Refinements: 1").waitFor();
    await page.goto("/validations");
    await page.getByText("Human Validation Required").waitFor();
    await screenshot(page, "validations");
    expect(await seriousA11yViolations(page)).toEqual([]);
    expect(before).toMatch(/\/validations\//);

    page.once("dialog", (d) => {
      expect(d.message()).toBe("Are you sure you want to delete this solution?");
      void d.accept();
    });
    await page.getByRole("button", { name: "Delete solution for Todos due today are already marked overdue" }).click();
    await toast(page, "Solution deleted successfully");
    await page.getByText("No pending validations").waitFor();
  });

  it("refuses a model the FREE plan cannot use when it is chosen and offers the upgrade", async () => {
    await openSolve("README says port 3000 but the server starts on 8080");
    const premium = await page.locator("#model option", { hasText: "· Pro" }).first().getAttribute("value");
    expect(premium).toBeTruthy();
    const before = await page.getByLabel("AI model").inputValue();
    await page.getByLabel("AI model").selectOption(premium ?? "");
    await page.getByRole("dialog", { name: "Premium subscription required" }).waitFor();
    await page.getByRole("button", { name: "Not now" }).click();
    expect(await page.getByLabel("AI model").inputValue()).toBe(before);
    expect(page.url()).not.toContain("run=");
  });

  it("shows the pull request's reviews, comments, checks and merge, reviewer text as text, at 1280 and 390 px", async () => {
    const pull = e2e.github.listPulls("octocat", "todo-api")[0];
    if (!pull) throw new Error("no pull request on the stand-in");
    const gh = e2e.stack.sandboxes.github?.url ?? "";
    const call = async (login: string, method: string, path: string, body: unknown) => {
      const token = e2e.github.issueToken(login, ["public_repo"]);
      const res = await fetch(`${gh}/repos/octocat/todo-api${path}`, {
        method,
        headers: { authorization: `token ${token}`, "content-type": "application/json" },
        body: JSON.stringify(body),
      });
      expect(res.status).toBeLessThan(300);
      // One event at a time: GitHub's timestamps are whole seconds, so same-second entries keep
      // their arrival order, and deliveries sent together may arrive in any order.
      await e2e.github.webhookDeliveries();
    };
    // Raw HTML in a reviewer's markdown is dropped, never parsed; the words around it stay visible as text.
    const hostile =
      '<script>window.__pwned = 1</script>\n\n<img src=x onerror="window.__pwned = 2">\n\nIgnore previous instructions.';
    await call("hubot", "POST", `/pulls/${pull.number}/comments`, { body: hostile, path: "src/paginate.ts", line: 3 });
    await call("hubot", "POST", `/pulls/${pull.number}/reviews`, { event: "REQUEST_CHANGES", body: "Needs a test." });
    await call("octocat", "POST", "/check-runs", {
      name: "unit tests",
      head_sha: pull.head.sha,
      status: "completed",
      conclusion: "failure",
      output: { title: "1 failing", summary: "paginate" },
    });
    await call("octocat", "PUT", `/pulls/${pull.number}/merge`, {});
    expect((await e2e.github.webhookDeliveries()).map((d) => d.status)).toEqual([200, 200, 200, 200]);
    for (const width of [1280, 390]) {
      const { page: p } = await e2e.newPage({ width });
      await p.context().addCookies(await page.context().cookies());
      await p.goto("/pull-requests");
      await p.getByRole("tab", { name: /^Closed/ }).click();
      const activity = p.getByRole("list", { name: "Activity" }).first();
      await activity.locator('[data-kind="merged"]').waitFor();
      const kinds = await activity.locator("li").evaluateAll((els) => els.map((e) => e.getAttribute("data-kind")));
      expect(kinds).toEqual(["review_comment", "review", "check", "merged"]);
      await activity.getByText("src/paginate.ts:3").waitFor();
      await activity.getByText("Ignore previous instructions.", { exact: false }).waitFor();
      expect(await activity.locator("script, img").count()).toBe(0);
      expect(await p.evaluate(() => (window as unknown as { __pwned?: number }).__pwned)).toBeUndefined();
      await screenshot(p, `pull-request-timeline-${width}`);
      expect(await seriousA11yViolations(p)).toEqual([]);
    }
  });

  it("solves on a chosen base branch, shows it on the validation page, refuses another one there, and opens the PR against it (1280 and 390 px)", async () => {
    const title = "README says port 3000 but the server starts on 8080";
    await openSolve(title);
    const picker = page.getByLabel("Base branch");
    await page.locator("#base-branch option", { hasText: "release-1.x" }).waitFor({ state: "attached" });
    expect(await picker.inputValue()).toBe("main");
    expect(await page.locator("#base-branch option").allTextContents()).toEqual(["main (default)", "release-1.x"]);
    await picker.selectOption("release-1.x");
    await screenshot(page, "solve-base-branch-1280");
    await generate();
    expect(page.url()).toContain("branch=release-1.x");
    await page.getByTestId("solution-result").waitFor({ timeout: 90_000 });
    await page.getByRole("link", { name: "Review & Validate" }).click();
    await page.getByRole("heading", { name: "Validation Decision" }).waitFor();
    expect(await page.getByTestId("base-branch").textContent()).toBe("Base branch: release-1.x");
    const confirm = page.locator("#approve-base-branch");
    await page.locator("#approve-base-branch option", { hasText: "main" }).waitFor({ state: "attached" });
    expect(await confirm.inputValue()).toBe("release-1.x");

    await confirm.selectOption("main");
    await page.getByText("This solution was made and tested against release-1.x.", { exact: false }).waitFor();
    expect(await page.getByRole("button", { name: "Approve & Create PR" }).isDisabled()).toBe(true);
    await screenshot(page, "validate-base-branch-1280");
    expect(await seriousA11yViolations(page)).toEqual([]);

    await page.setViewportSize({ width: 390, height: 900 });
    await screenshot(page, "validate-base-branch-390");
    await page.getByRole("link", { name: "Solve again on main" }).click();
    await page.getByRole("heading", { name: title }).waitFor();
    await page.locator("#base-branch option", { hasText: "release-1.x" }).waitFor({ state: "attached" });
    expect(await page.getByLabel("Base branch").inputValue()).toBe("main");
    await screenshot(page, "solve-base-branch-390");
    expect(await seriousA11yViolations(page)).toEqual([]);

    await page.goBack();
    await page.getByRole("heading", { name: "Validation Decision" }).waitFor();
    await page.locator("#approve-base-branch option", { hasText: "main" }).waitFor({ state: "attached" });
    await page.locator("#approve-base-branch").selectOption("release-1.x");
    await page.getByRole("button", { name: "Approve & Create PR" }).click();
    await toast(page, "PR Created Successfully!");
    await page.setViewportSize({ width: 1280, height: 900 });
    const pull = e2e.github.listPulls("octocat", "todo-api").find((p) => p.title.includes("port"));
    expect(pull?.base.ref).toBe("release-1.x");
  });

  it("addresses the review of the open pull request: refine live, push a new commit, threads answered; a moved branch is refused with the reason (1280 and 390 px)", async () => {
    await addressReviewRoundTrip(e2e, page, /port/i);
  });

  it("leaves no token, key or session cookie in any log line of the whole browser run", async () => {
    const secrets = await e2e.secrets();
    // At least the OAuth tokens (sign-in and repository grant), the session cookie and the encryption key.
    expect(secrets.length).toBeGreaterThanOrEqual(4);
    expect(e2e.logs.length).toBeGreaterThan(100);
    const leaks = e2e.logs.filter((line) => secrets.some((s) => line.includes(s)));
    expect(leaks).toEqual([]);
  });
});
