import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { authorizeRepositories, screenshot, seriousA11yViolations, signIn, startE2E, type E2E } from "./e2e.harness";
import { eventually } from "@fixloop/testkit";
import { atBothWidths, sharePhoneSession } from "./walk.helpers";

// The repositories page while each card's trust card loads, at desktop and phone width.
let e2e: E2E;
let desk: Page;
let phone: Page;

beforeAll(async () => {
  e2e = await startE2E("trust-card-loading");
  ({ page: desk } = await e2e.newPage({ width: 1280 }));
  ({ page: phone } = await e2e.newPage({ width: 390 }));
  await signIn(desk, "octocat");
  await authorizeRepositories(desk, "octocat");
  await sharePhoneSession(desk, phone);
});
afterAll(async () => {
  await e2e?.stop();
});

/** A repository card's trust card, whichever state it is in. */
const trustCard = (page: Page, fullName: string) =>
  page
    .getByRole("listitem")
    .filter({ has: page.getByText(fullName, { exact: true }) })
    .getByLabel("Trust card", { exact: true });

type Watch = { formSeen: string[]; released: boolean };

/**
 * Watches the page from its first paint: every backtest form field that is ever visible is noted,
 * with whether the backtest answers had been let through yet.
 */
async function watchTrustForms(page: Page) {
  await page.addInitScript(() => {
    const w: Watch = { formSeen: [], released: false };
    (window as unknown as { __trust: Watch }).__trust = w;
    const check = () => {
      for (const el of document.querySelectorAll<HTMLInputElement>('input[id$="-backtest"]'))
        if (el.checkVisibility() && !w.released) w.formSeen.push(el.id);
    };
    new MutationObserver(check).observe(document, { childList: true, subtree: true, attributes: true });
    const tick = () => {
      check();
      requestAnimationFrame(tick);
    };
    requestAnimationFrame(tick);
  });
}

/**
 * Holds every backtest answer until `release` is called; `held(fullName)` resolves once that
 * repository's backtest request has been asked for and is held.
 */
async function holdBacktests(page: Page) {
  let open!: () => void;
  const gate = new Promise<void>((r) => (open = r));
  const asked = new Set<string>();
  await page.route("**/api/github/repositories/*/*/backtest", async (route) => {
    asked.add(new URL(route.request().url()).pathname);
    await gate;
    await route.continue();
  });
  return {
    held: (fullName: string) =>
      eventually(() => asked.has(`/api/github/repositories/${fullName}/backtest`), {
        what: `${fullName}'s backtest request`,
      }),
    release: async () => {
      await page.evaluate(() => {
        (window as unknown as { __trust: Watch }).__trust.released = true;
      });
      open();
    },
  };
}

/** Two animation frames: the page has painted what it rendered before this call. */
const painted = (page: Page) =>
  page.evaluate(() => new Promise<void>((r) => requestAnimationFrame(() => requestAnimationFrame(() => r()))));

describe("the trust card while it loads", () => {
  it("stays the closed disclosure from the first paint until its data arrives, without the card jumping", async () => {
    for (const [page, width] of atBothWidths(desk, phone)) {
      await watchTrustForms(page);
      const { held, release } = await holdBacktests(page);
      await page.goto("/repositories");
      const card = trustCard(page, "octocat/url-shortener");
      await card.waitFor();
      // The card has asked for its data and is waiting for it, and the page has painted since.
      await held("octocat/url-shortener");
      await painted(page);
      // Every card is the closed disclosure, under its accessible name, and none has shown the form.
      expect(await page.evaluate(() => (window as unknown as { __trust: Watch }).__trust.formSeen)).toEqual([]);
      expect(await page.getByRole("group", { name: "Trust card" }).count()).toBeGreaterThan(1);
      expect(await page.getByRole("region", { name: "Trust card" }).count()).toBe(0);
      expect(await card.evaluate((el) => el.tagName)).toBe("DETAILS");
      await card.getByText("How would Fixloop have done here?").waitFor();
      const loadingHeight = (await card.boundingBox())?.height;
      expect(await seriousA11yViolations(page), `loading trust cards at ${width}`).toEqual([]);
      await screenshot(page, `trust-card-loading-${width}`);

      await release();
      await expect.poll(() => card.getAttribute("aria-busy")).toBe("false");
      expect(await page.evaluate(() => (window as unknown as { __trust: Watch }).__trust.formSeen)).toEqual([]);
      // Not measured: the same closed disclosure, the same height; opening it shows the form.
      expect((await card.boundingBox())?.height).toBe(loadingHeight);
      expect(await page.locator("#octocat-url-shortener-backtest").isVisible()).toBe(false);
      await card.getByText("How would Fixloop have done here?").click();
      await page.locator("#octocat-url-shortener-backtest").waitFor();
      expect(await page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth)).toBe(false);
      await card.scrollIntoViewIfNeeded();
      await screenshot(page, `trust-card-loaded-${width}`);
      await page.unrouteAll();
    }
  });

  it("keeps a disclosure opened while loading open when its data arrives", async () => {
    const { release } = await holdBacktests(desk);
    await desk.goto("/repositories");
    const card = trustCard(desk, "octocat/url-shortener");
    await card.getByText("How would Fixloop have done here?").click();
    await card.getByRole("status").filter({ hasText: "Loading the trust card…" }).waitFor();
    await release();
    await desk.locator("#octocat-url-shortener-backtest").waitFor();
    expect(await card.getByText(/^Not measured yet/).isVisible()).toBe(true);
    await desk.unrouteAll();
  });
});
