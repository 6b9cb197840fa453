import { expect } from "vitest";
import type { Page } from "playwright-core";
import { screenshot } from "./e2e.harness";

/** Buttons and links of the page (not the toast's own) that a visible toast overlaps, by accessible name. */
export async function toastCoversNoAction(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const toasts = [...document.querySelectorAll("[data-sonner-toast]")].map((t) => t.getBoundingClientRect());
    const overlaps = (a: DOMRect, b: DOMRect) =>
      a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom && a.width > 0 && b.width > 0;
    return (
      [...document.querySelectorAll("main button, main a[href]")]
        .filter((el) => !el.closest("[data-sonner-toast]"))
        // Inside a closed <details> a control keeps a layout box but is not shown: nothing to block.
        .filter((el) => el.checkVisibility())
        .filter((el) => {
          const r = el.getBoundingClientRect();
          return r.bottom > 0 && r.top < window.innerHeight && toasts.some((t) => overlaps(t, r));
        })
        .map((el) => el.getAttribute("aria-label") ?? el.textContent?.trim() ?? el.tagName)
    );
  });
}

/** Pays for Pro through the sandbox checkout and closes the success view. */
export async function payForPro(page: Page) {
  await page.goto("/pricing");
  const pro = page.getByRole("region", { name: "Pro plan" });
  await pro.getByRole("button", { name: "Select Pro" }).click();
  await page.getByRole("button", { name: "Upgrade to Pro" }).click();
  await page
    .getByRole("dialog", { name: "Upgrade to Pro" })
    .getByRole("button", { name: /^Pay \$15/ })
    .click();
  const checkout = page.getByTestId("razorpay-sandbox-checkout");
  await checkout.getByRole("button", { name: /^Pay / }).click();
  await page.getByText("Payment successful! Your subscription is now active.").waitFor();
  await page.getByRole("dialog").getByRole("button", { name: "Close", exact: true }).click();
  await pro.getByText("Current plan", { exact: true }).waitFor();
}

const plan = async (page: Page) =>
  ((await (await page.request.get("/api/payments/subscription")).json()) as { subscription: { plan: string } })
    .subscription.plan;

/** "Select Free" on Pro asks first, says what is lost and from when; "Keep Pro" closes it with Pro kept. */
export async function expectFreeToKeepPro(page: Page, width: string) {
  await page.goto("/pricing");
  const free = page.getByRole("region", { name: "Free plan" });
  await page.getByRole("region", { name: "Pro plan" }).getByText("Current plan", { exact: true }).waitFor();
  await free.getByRole("button", { name: "Select Free" }).click();
  const dialog = page.getByRole("dialog", { name: "Switch from Pro to Free?" });
  await dialog.getByText("Solutions per month go from 100 to 10").waitFor();
  await dialog.getByText("OpenAI and Anthropic models are no longer available").waitFor();
  const end = (
    (await (await page.request.get("/api/payments/subscription")).json()) as {
      subscription: { currentPeriodEnd: string };
    }
  ).subscription.currentPeriodEnd;
  const day = await page.evaluate(
    (iso) => new Date(iso).toLocaleDateString(undefined, { year: "numeric", month: "long", day: "numeric" }),
    end,
  );
  await dialog.getByText(`You keep Pro until ${day}`).waitFor();
  expect(await page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth)).toBe(false);
  await screenshot(page, `downgrade-confirm-${width}`);
  await dialog.getByRole("button", { name: "Keep Pro" }).click();
  await dialog.waitFor({ state: "hidden" });
  expect(await page.locator("[data-sonner-toast]").count()).toBe(0);
  expect(await plan(page)).toBe("PRO");
}

/** Buttons and links of the page under a toast that a tap at their centre would not reach (the toast takes it). */
export async function toastBlocksActions(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const toasts = [...document.querySelectorAll("[data-sonner-toast]")].map((t) => t.getBoundingClientRect());
    return [...document.querySelectorAll("main button, main a[href]")]
      .filter((el) => el.checkVisibility())
      .filter((el) => {
        const r = el.getBoundingClientRect();
        const x = r.left + r.width / 2;
        const y = r.top + r.height / 2;
        if (r.width === 0 || !toasts.some((t) => x > t.left && x < t.right && y > t.top && y < t.bottom)) return false;
        return !el.contains(document.elementFromPoint(x, y));
      })
      .map((el) => el.getAttribute("aria-label") ?? el.textContent?.trim() ?? el.tagName);
  });
}

/** Scrolled to the end, the room between the page's last button or link and the bottom of the window, in px. */
export async function roomBelowLastAction(page: Page): Promise<number> {
  return page.evaluate(() => {
    window.scrollTo(0, document.documentElement.scrollHeight);
    const bottoms = [...document.querySelectorAll("main button, main a[href]")]
      .filter((el) => el.checkVisibility())
      .map((el) => el.getBoundingClientRect().bottom);
    return window.innerHeight - Math.max(...bottoms);
  });
}
