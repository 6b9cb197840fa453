import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { chromium, type Browser, type Page } from "playwright-core";
import { startStack, type Stack } from "@fixloop/infra/launcher";
import type { RazorpaySandboxControl } from "@fixloop/testkit/sandbox";
import { createTestDatabase, testPrefix, testRedisUrl } from "@fixloop/testkit";
import { SCREENSHOTS } from "./e2e.harness";

const CHROMIUM =
  process.env.CHROMIUM_PATH ??
  ["/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome"].find((p) => fs.existsSync(p));

let stack: Stack;
let browser: Browser;
let page: Page;

beforeAll(async () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "fixloop-e2e-pay-"));
  // The run's Postgres and Redis (global setup), with this file's own database and key prefix.
  const { url } = await createTestDatabase();
  const env = {
    DATABASE_URL: url,
    REDIS_URL: testRedisUrl(),
    QUEUE_PREFIX: testPrefix(),
    RATE_LIMITS_ENABLED: "false",
  };
  stack = await startStack({ dataDir, port: 0, buildWeb: "if-missing", entries: inject("e2eEntries"), env });
  browser = await chromium.launch({ executablePath: CHROMIUM, args: ["--no-sandbox"] });
  page = await browser.newPage();
});

afterAll(async () => {
  await browser?.close();
  await stack?.stop();
});

async function signIn() {
  await page.goto(`${stack.url}/auth`);
  await page.getByRole("link", { name: /Continue with GitHub/ }).click();
  await page
    .getByRole("button", { name: /^Authorize as / })
    .first()
    .click();
  await page.waitForURL(/\/dashboard/);
}

describe("paying for PRO in the sandbox checkout", () => {
  it("upgrades the plan through the checkout modal, the verify call and the webhooks", async () => {
    await signIn();
    await page.goto(`${stack.url}/pricing`);
    const pro = page.getByRole("region", { name: "Pro plan" });
    await expect
      .poll(() =>
        page.getByRole("region", { name: "Free plan" }).getByText("Current plan", { exact: true }).isVisible(),
      )
      .toBe(true);

    await pro.getByRole("button", { name: "Select Pro" }).click();
    await page.getByRole("button", { name: "Upgrade to Pro" }).click();
    const upgrade = page.getByRole("dialog", { name: "Upgrade to Pro" });
    // The plan's solutions are said once (its feature list), not again in the summary line.
    await upgrade.getByText("100 AI solutions per month").waitFor();
    expect(await upgrade.getByText(/AI solutions (a|per) month/).count()).toBe(1);
    await upgrade.getByRole("button", { name: /^Pay \$15/ }).click();

    const checkout = page.getByTestId("razorpay-sandbox-checkout");
    await checkout.waitFor();
    await checkout.getByRole("button", { name: /^Pay / }).click();

    await page.getByText("Payment successful! Your subscription is now active.").waitFor();
    await expect.poll(() => pro.getByText("Current plan", { exact: true }).isVisible()).toBe(true);
    // The paid plan reads as current, with nothing left to upgrade to.
    await page.getByRole("dialog").getByRole("button", { name: "Close", exact: true }).click();
    expect(await pro.getByRole("button", { name: "Your current plan" }).getAttribute("aria-disabled")).toBe("true");
    expect(await page.getByRole("button", { name: "Selected" }).count()).toBe(0);
    expect(await page.getByRole("button", { name: "Upgrade", exact: true }).isVisible()).toBe(true);
    // Each card states its monthly solutions once, as its first bullet.
    expect(await page.getByText(/AI solutions a month/).count()).toBe(0);
    expect(await pro.getByText("100 AI solutions per month").count()).toBe(1);
    // Free can refine and edit: the Free card says so and Pro does not claim it as its own.
    const free = page.getByRole("region", { name: "Free plan" });
    expect(await free.getByText("Refinements and manual edits").count()).toBe(1);
    expect(await pro.getByText("Refinements and manual edits").count()).toBe(0);

    const res = await page.request.get(`${stack.url}/api/payments/subscription`);
    const body = (await res.json()) as { subscription: { plan: string }; recentPayments: Array<{ status: string }> };
    expect(body.subscription.plan).toBe("PRO");
    expect(body.recentPayments[0]?.status).toBe("paid");

    const control = stack.sandboxes.payments?.control as RazorpaySandboxControl | undefined;
    await control?.settled();
    expect(control?.deliveries.map((d) => [d.type, d.status])).toEqual([
      ["payment.captured", 200],
      ["order.paid", 200],
    ]);
    const notices = (await (await page.request.get(`${stack.url}/api/notifications`)).json()) as {
      notifications: Array<{ type: string }>;
    };
    expect(notices.notifications.filter((n) => n.type === "plan_activated")).toHaveLength(1);
  });

  it("shows the failure view with Try Again when the payment fails", async () => {
    await page.goto(`${stack.url}/pricing`);
    await page
      .getByRole("region", { name: "Enterprise plan" })
      .getByRole("button", { name: "Select Enterprise" })
      .click();
    await page.getByRole("button", { name: "Upgrade to Enterprise" }).click();
    const modal = page.getByRole("dialog", { name: "Upgrade to Enterprise" });
    await modal.getByRole("button", { name: /^Pay \$50/ }).click();
    await page.getByTestId("razorpay-sandbox-checkout").getByRole("button", { name: "Fail payment" }).click();
    await modal.getByText("There was an issue processing your payment. Please try again or contact support.").waitFor();
    await modal.getByRole("button", { name: "Try Again" }).waitFor();
    const res = await page.request.get(`${stack.url}/api/payments/subscription`);
    expect(((await res.json()) as { subscription: { plan: string } }).subscription.plan).toBe("PRO");
  });

  it("pays Enterprise on the second try, then says Pro can be bought once Enterprise ends", async () => {
    const modal = page.getByRole("dialog", { name: "Upgrade to Enterprise" });
    await modal.getByRole("button", { name: "Try Again" }).click();
    const checkout = page.getByTestId("razorpay-sandbox-checkout");
    await checkout.getByRole("button", { name: /^Pay / }).click();
    await page.getByText("Payment successful! Your subscription is now active.").waitFor();
    await page.getByRole("dialog").getByRole("button", { name: "Close", exact: true }).click();
    const enterprise = page.getByRole("region", { name: "Enterprise plan" });
    await expect.poll(() => enterprise.getByText("Current plan", { exact: true }).isVisible()).toBe(true);
    // A Pro payment would not apply while Enterprise runs: the page says so instead of taking the money.
    for (const width of [1280, 390]) {
      await page.setViewportSize({ width, height: 900 });
      await page.getByRole("region", { name: "Pro plan" }).getByRole("button", { name: "Select Pro" }).click();
      const told = page
        .locator("[data-sonner-toast]")
        .filter({ hasText: /^You are on the Enterprise plan until .+; Pro can be bought once it ends$/ });
      await told.first().waitFor();
      expect(await page.getByRole("dialog", { name: "Upgrade to Pro" }).count()).toBe(0);
      await page.waitForTimeout(800); // the toast's entrance, for the picture only
      fs.mkdirSync(SCREENSHOTS, { recursive: true });
      await page.screenshot({ path: path.join(SCREENSHOTS, `pricing-lower-plan-${width}.png`) });
    }
    await page.setViewportSize({ width: 1280, height: 720 });
    const res = await page.request.get(`${stack.url}/api/payments/subscription`);
    expect(((await res.json()) as { subscription: { plan: string } }).subscription.plan).toBe("ENTERPRISE");
  });
});
