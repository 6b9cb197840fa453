import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { createDb, currentUsagePeriod, type Db } from "@fixloop/db";
import { createQueues, redisConnection, type Queues } from "@fixloop/runtime";
import { insertIssue, insertRun, seedSolution } from "@fixloop/testkit";
import { screenshot, signIn, startE2E, toast, type E2E } from "./e2e.harness";
import { recordCspViolations } from "./csp.harness";

// Issue #25 points 1 and 6: checkout from every path into it, and a policy that blocks nothing the app serves.
let e2e: E2E;
let db: Db;
let queues: Queues;

beforeAll(async () => {
  e2e = await startE2E("checkout", { ADMIN_GITHUB_LOGINS: "octocat" });
  db = createDb(e2e.stack.env.DATABASE_URL ?? "", { max: 2 });
  queues = createQueues(redisConnection(e2e.stack.env.REDIS_URL ?? ""), e2e.stack.env.QUEUE_PREFIX ?? "");
});
afterAll(async () => {
  await queues?.close();
  await db?.destroy();
  await e2e?.stop();
});

const userId = async (login: string) =>
  (await db.selectFrom("users").select("id").where("username", "=", login).executeTakeFirstOrThrow()).id;

/** Opens the user menu (at phone width it lives in the navigation drawer) and picks `item`. */
async function userMenu(page: Page, login: string, width: number, item?: string) {
  if (width < 768) await page.getByRole("button", { name: "Open menu" }).click();
  await page
    .getByRole("button", { name: new RegExp(`User menu for ${login}`) })
    .filter({ visible: true })
    .click();
  if (!item) return;
  await page.getByRole("menuitem", { name: item }).click();
  const drawer = page.getByRole("dialog", { name: "Menu" });
  if (await drawer.isVisible()) await page.keyboard.press("Escape");
  await drawer.waitFor({ state: "hidden" });
}

/** From the pricing page reached in-app: choose the plan, pay in the stand-in checkout, see it active. */
async function payFor(page: Page, plan: "Pro" | "Enterprise", price: string) {
  await page.waitForURL(/\/pricing$/);
  // Free can refine and edit: the Free card says so and no paid card claims it as its own.
  const free = page.getByRole("region", { name: "Free plan" });
  await free.getByText("Refinements and manual edits", { exact: true }).waitFor();
  for (const paid of ["Pro", "Enterprise"])
    expect(
      await page
        .getByRole("region", { name: `${paid} plan` })
        .getByText("Refinements and manual edits")
        .count(),
    ).toBe(0);
  await page
    .getByRole("region", { name: `${plan} plan` })
    .getByRole("button", { name: `Select ${plan}` })
    .click();
  await page.getByRole("button", { name: `Upgrade to ${plan}` }).click();
  const modal = page.getByRole("dialog", { name: `Upgrade to ${plan}` });
  // The dialog names the plan's solutions once (its feature list), not again in its summary.
  await modal.getByRole("button", { name: new RegExp(`^Pay \\${price}`) }).waitFor();
  expect(await modal.getByText(/AI solutions/).count()).toBe(1);
  await modal.getByRole("button", { name: new RegExp(`^Pay \\${price}`) }).click();
  const checkout = page.getByTestId("razorpay-sandbox-checkout");
  await checkout.waitFor({ timeout: 15_000 });
  await checkout.getByRole("button", { name: /^Pay / }).click();
  await toast(page, "Payment successful! Your subscription is now active.");
  await modal.getByRole("button", { name: "Close", exact: true }).click();
}

const plan = async (page: Page) =>
  ((await (await page.request.get("/api/payments/subscription")).json()) as { subscription: { plan: string } })
    .subscription.plan;

describe("checkout reached from inside the app", () => {
  for (const [width, login] of [
    [1280, "octocat"],
    [390, "hubot"],
  ] as const) {
    it(`pays from the quota dialog's View plans, then from Profile → Billing → Upgrade, at ${width} px`, async () => {
      const { page } = await e2e.newPage({ width });
      const violations = await recordCspViolations(page);
      await signIn(page, login);
      const id = await userId(login);
      const { periodStart } = await currentUsagePeriod(db, id);
      await db.insertInto("usage_counters").values({ user_id: id, period_start: periodStart, used: 10 }).execute();
      const issue = await insertIssue(db, id, { number: 3 });

      // The document is the solve page's; pricing is only ever reached by in-app navigation below.
      await page.goto(`/issues/${issue.id}/solve`);
      await page.getByRole("button", { name: "Generate Solution" }).click();
      const quota = page.getByRole("dialog", { name: "Usage limit exceeded" });
      await quota.getByRole("link", { name: "View plans" }).click();
      await payFor(page, "Pro", "$15");
      expect(await plan(page)).toBe("PRO");

      await page.goto("/dashboard");
      await userMenu(page, login, width, "Profile Settings");
      await page.getByRole("tab", { name: "Billing" }).click();
      await page.getByRole("tabpanel").getByRole("link", { name: "Upgrade" }).click();
      await payFor(page, "Enterprise", "$50");
      expect(await plan(page)).toBe("ENTERPRISE");
      expect(await page.getByText("Failed to load Razorpay SDK").count()).toBe(0);
      expect(violations).toEqual([]);
      await screenshot(page, `checkout-in-app-${width}`);
    });
  }
});

/**
 * The bell shows an issue title's inline code as code (raw backticks before) and the 80% usage
 * notice as "usage" (it read "USAGE 80"): a pending solution and the notice are seeded per width.
 */
async function expectReadableNotifications(page: Page, width: number) {
  const owner = await userId("octocat");
  const title = `Crash when \`limit\` is \`0\` (${width})`;
  await seedSolution(db, {
    userId: owner,
    repoFullName: "octocat/todo-api",
    issueNumber: 9000 + width,
    title,
    files: [{ filename: "src/limit.ts", action: "modify", originalContent: "a\n", content: "b\n" }],
  });
  await db
    .insertInto("notifications")
    .values({
      user_id: owner,
      kind: "usage_80",
      message: "You have used 8 of your 10 AI solutions this month (80%).",
      link: "/pricing",
    })
    .execute();
  await page.goto("/dashboard");
  await page.getByRole("button", { name: /^Notifications \(\d+ unread\)$/ }).click();
  const feed = page.getByRole("heading", { name: "Notifications" }).locator("..");
  const solved = feed.getByRole("listitem").filter({ hasText: `(${width})` });
  expect(await solved.locator("code").allTextContents()).toEqual(["limit", "0"]);
  expect(await solved.textContent()).not.toContain("`");
  const usage = feed.getByRole("listitem").filter({ hasText: "You have used 8 of your 10" });
  expect(await usage.locator("p").first().textContent()).toBe("usage");
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
  await screenshot(page, `notifications-${width}`);
  await page.keyboard.press("Escape");
}

describe("the app's own pages under its CSP", () => {
  it("loads the landing, dashboard, solve, pricing, profile and admin queue pages with no violation", async () => {
    for (const width of [1280, 390]) {
      const { page } = await e2e.newPage({ width });
      const violations = await recordCspViolations(page);
      await page.goto("/");
      await page.waitForLoadState("networkidle");
      await signIn(page, "octocat");
      await expectReadableNotifications(page, width);
      const standIn = e2e.stack.sandboxes.github?.url ?? "missing";
      await userMenu(page, "octocat", width);
      const avatar = page.locator(`img[src^="${standIn}/avatars/"]`).filter({ visible: true }).first();
      await expect
        .poll(() => avatar.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0))
        .toBe(true);
      const issue = await insertIssue(db, await userId("octocat"), { number: width, title: "A page to walk" });
      await page.goto(`/issues/${issue.id}/solve`);
      await page.getByRole("heading", { name: "A page to walk" }).waitFor();
      await page.goto("/pricing");
      await page.getByRole("region", { name: "Pro plan" }).waitFor();
      await page.goto("/profile-settings");
      for (const tab of ["Usage", "Billing", "Settings", "Overview"]) {
        await page.getByRole("tab", { name: tab }).click();
        await page.waitForLoadState("networkidle");
      }
      await page.goto("/admin/queues");
      await page.getByText("solve", { exact: false }).first().waitFor();
      await page.waitForLoadState("networkidle");
      expect(violations, `${width} px`).toEqual([]);
    }
  });
});

/** The number shown under `label` ("Waiting", "Failed", …) in a queue's card. */
const countIn = (page: Page, queue: string, label: string) =>
  page.getByRole("region", { name: `Queue ${queue}` }).locator(`div:has(> dt:text-is("${label}")) > dd`);

describe("the operations page", () => {
  for (const [width, queue] of [
    [1280, "sync"],
    [390, "fork"],
  ] as const) {
    it(`shows live queue counts and worker processes, pauses and resumes a queue, cancels a run, at ${width} px`, async () => {
      const { page } = await e2e.newPage({ width });
      const violations = await recordCspViolations(page);
      await signIn(page, "octocat");
      await userMenu(page, "octocat", width, "Operations");
      await page.waitForURL(/\/ops$/);
      await page.getByRole("heading", { name: "Operations" }).waitFor();
      const worker = page.getByRole("listitem", { name: /^Worker .+ pid \d+$/ }).first();
      await expect.poll(() => worker.textContent()).toMatch(/running.*Queues.*solve/s);
      // The solve worker's sandbox self-check, each wall held (the walls' attacks are in health.sandbox.test.ts).
      const sandbox = worker.getByRole("region", { name: "Sandbox self-check" });
      await expect.poll(() => sandbox.textContent(), { timeout: 20_000 }).toMatch(/Sandbox bwrap.*walls held/s);
      expect(await sandbox.getByRole("listitem").allTextContents()).toEqual([
        "✓No route to the host: held",
        "✓No host files: held",
        "✓No user namespaces inside: held",
        "✓Proxy refuses private addresses: held",
        "✓Memory limit: held",
        "✓Process limit: held",
        "✓Disk limit: held",
      ]);

      await page.getByRole("button", { name: `Pause ${queue}` }).click();
      await page
        .getByRole("dialog", { name: `Pause ${queue}?` })
        .getByRole("button", { name: "Pause queue" })
        .click();
      await toast(page, `Queue ${queue} paused`);
      // Nothing takes the job while the queue is paused; the stream shows it waiting.
      await (queues.all().find((q) => q.name === queue) as Queues["sync"]).add("bad", { kind: "nope" } as never);
      await expect.poll(() => countIn(page, queue, "Waiting").textContent(), { timeout: 10_000 }).toBe("1");
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);

      await page.getByRole("button", { name: `Resume ${queue}` }).click();
      await toast(page, `Queue ${queue} resumed`);
      // A payload no processor accepts fails at once: the worker took it.
      await expect.poll(() => countIn(page, queue, "Failed").textContent(), { timeout: 10_000 }).toBe("1");
      expect(await countIn(page, queue, "Waiting").textContent()).toBe("0");
      await page
        .getByRole("region", { name: `Queue ${queue}` })
        .getByRole("button", { name: "Retry 1 failed" })
        .waitFor();
      // A queued run shows up in the lists; the screenshot has every section filled in.
      const owner = await userId("octocat");
      const issue = await insertIssue(db, owner, { number: 4000 + width, title: "A run to cancel" });
      const run = await insertRun(db, { user_id: owner, issue_id: issue.id, model_id: "m" });
      const runs = page.getByRole("region", { name: "Runs waiting or running" });
      const cancel = runs.getByRole("button", { name: `Cancel run ${run.id.slice(0, 8)}` });
      await cancel.waitFor({ timeout: 10_000 });
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
      await screenshot(page, `ops-${width}`);
      await cancel.click();
      await page.getByRole("dialog", { name: "Cancel this run?" }).getByRole("button", { name: "Cancel run" }).click();
      await toast(page, "Run cancelled");
      await runs.getByText("No runs are waiting or running").waitFor({ timeout: 10_000 });
      if (width === 1280) {
        await page.getByRole("link", { name: "Job details (bull-board)" }).click();
        await page.waitForURL(/\/admin\/queues/);
        await page.getByText("solve", { exact: false }).first().waitFor();
        await page.waitForLoadState("networkidle");
      }
      expect(violations).toEqual([]);
    });
  }

  for (const width of [1280, 390])
    it(`goes live by itself once a stream refused for too many open live streams can be opened, at ${width} px`, async () => {
      const { context, page } = await e2e.newPage({ width });
      await signIn(page, "octocat");
      // Other tabs take every live stream the admin has left (SSE_MAX_STREAMS_PER_USER, 20 by default;
      // pages of earlier tests may hold some).
      const cookie = (await context.cookies()).map((c) => `${c.name}=${c.value}`).join("; ");
      const tabs: AbortController[] = [];
      for (;;) {
        const tab = new AbortController();
        const res = await fetch(`${e2e.stack.url}/api/ops/stream`, { headers: { cookie }, signal: tab.signal });
        if (res.status !== 200) {
          expect(res.status).toBe(429);
          break;
        }
        tabs.push(tab);
        expect(tabs.length).toBeLessThanOrEqual(20);
      }
      expect(tabs.length).toBeGreaterThan(0);
      const refused = page.waitForResponse((r) => r.url().endsWith("/api/ops/stream") && r.status() === 429);
      await page.goto("/ops");
      await page.getByRole("heading", { name: "Operations" }).waitFor();
      await refused;
      await page.getByText(/^Reconnecting… · updated/).waitFor();
      await screenshot(page, `ops-refused-${width}`);
      // The other tabs close: the page opens its stream again without a reload.
      for (const tab of tabs) tab.abort();
      // The first try again is 5 s after the refusal (10 s after a second refusal).
      await page.getByText(/^Live · updated/).waitFor({ timeout: 30_000 });
      await screenshot(page, `ops-live-again-${width}`);
      await context.close();
    });

  it("is not there for a user who is not an administrator", async () => {
    const { page } = await e2e.newPage({ width: 390 });
    await signIn(page, "hubot");
    await userMenu(page, "hubot", 390);
    await page.getByRole("menuitem", { name: "Logout" }).waitFor();
    expect(await page.getByRole("menuitem", { name: "Operations" }).count()).toBe(0);
    await page.goto("/ops");
    await page.getByRole("alert").getByText("Page not found").waitFor();
  });
});
