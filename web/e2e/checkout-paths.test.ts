import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { createDb, currentUsagePeriod, type Db } from "@fixloop/db";
import { insertIssue } from "@fixloop/testkit";
import { screenshot, signIn, startE2E, toast, type E2E } from "./e2e.harness";
import { recordCspViolations } from "./csp.harness";

// Issue #25 points 1 and 6: checkout from every path into it, and a policy that blocks nothing the app serves.
let e2e: E2E;
let db: Db;

beforeAll(async () => {
  e2e = await startE2E("checkout", { ADMIN_GITHUB_LOGINS: "octocat" });
  db = createDb(e2e.stack.env.DATABASE_URL ?? "", { max: 2 });
});
afterAll(async () => {
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
  await page
    .getByRole("region", { name: `${plan} plan` })
    .getByRole("button", { name: `Select ${plan}` })
    .click();
  await page.getByRole("button", { name: `Upgrade to ${plan}` }).click();
  const modal = page.getByRole("dialog", { name: `Upgrade to ${plan}` });
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

describe("the app's own pages under its CSP", () => {
  it("loads the landing, dashboard, solve, pricing, profile and admin queue pages with no violation", async () => {
    for (const width of [1280, 390]) {
      const { page } = await e2e.newPage({ width });
      const violations = await recordCspViolations(page);
      await page.goto("/");
      await page.waitForLoadState("networkidle");
      await signIn(page, "octocat");
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
