import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { Redis } from "ioredis";
import { WORKER_HEARTBEAT_TTL_SECONDS, writeWorkerHeartbeat } from "@fixloop/runtime";
import { screenshot, signIn, signInWithTodoApi, solveAndReview, startE2E, toast, type E2E } from "./e2e.harness";
import { payForPro } from "./ui-states.helpers";
import { atBothWidths } from "./walk.helpers";

// The third walk's smaller items, at 1280 and 390 px, on one stack.
let e2e: E2E;
let desk: Page;
let phone: Page;
/** Console errors (failed requests included) each page logged since it was last cleared. */
const errors = new Map<Page, string[]>();

function watchConsole(page: Page) {
  errors.set(page, []);
  page.on("console", (m) => {
    if (m.type() === "error") errors.get(page)?.push(`${m.text()} ${m.location().url}`);
  });
  page.on("pageerror", (e) => errors.get(page)?.push(e.message));
}

/** Every answer adds MARK.md (one line), so a test command can tell the patched tree from the base tree. */
const MARKED = {
  analysis: "The todo needs a mark.",
  proposedSolution: "Add the mark.",
  confidence: 80,
  files: [{ filename: "MARK.md", action: "create" as const, edits: [], content: "# Marked\n" }],
};
const tap = (...lines: string[]) => `printf '${["TAP version 13", ...lines, `1..${lines.length}`].join("\\n")}\\n'`;

beforeAll(async () => {
  e2e = await startE2E("walk8", { ADMIN_GITHUB_LOGINS: "octocat" });
  ({ page: desk } = await e2e.newPage({ width: 1280 }));
  ({ page: phone } = await e2e.newPage({ width: 390 }));
  for (const p of [desk, phone]) watchConsole(p);
  e2e.models.respondWith(() => true, MARKED);
  e2e.models.usage({ input: 1_200, output: 3_000 });
});
afterAll(async () => {
  await e2e?.stop();
});

describe("the third walk's smaller items (1280 and 390 px)", () => {
  it("logs no failed request on the anonymous pages, and Pricing says what uses a solution", async () => {
    for (const [page, w] of atBothWidths(desk, phone)) {
      errors.set(page, []);
      for (const path of ["/", "/auth", "/pricing"]) {
        await page.goto(path);
        await page.waitForLoadState("networkidle");
      }
      await page.getByText("What counts as a solution?").click();
      await page.getByText(/so does each refinement and each Address of review comments/).waitFor();
      await screenshot(page, `walk8-pricing-faq-${w}`);
      expect(errors.get(page), `at ${w} px`).toEqual([]);
    }
    await signInWithTodoApi(desk);
    await signIn(phone, "octocat");
  });

  it("reviews a one-line fix that a test proves: one 'passed', no 'no test', simple, and says the PR is a draft", async () => {
    const status = await desk.evaluate(
      async (cmd) => {
        const res = await fetch("/api/github/repositories/octocat/todo-api/test-settings", {
          method: "PUT",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ command: cmd, setup: null, timeoutSeconds: 120, setupNetwork: false }),
        });
        return res.status;
      },
      `if [ -f MARK.md ]; then ${tap("ok 1 - marks the todo")}; else ${tap("not ok 1 - marks the todo")}; exit 1; fi`,
    );
    expect(status).toBe(200);
    await solveAndReview(desk, "Pagination skips a todo at every page boundary");
    const url = desk.url();
    for (const [page, w] of atBothWidths(desk, phone)) {
      if (page === phone) await phone.goto(url);
      const panel = page.getByTestId("tests-panel");
      await panel.waitFor();
      expect(await page.getByTestId("tests-verdict").textContent()).toBe("passed");
      // The verdict is said once (a kind badge beside it said "passed" too).
      expect(await panel.getByText("passed", { exact: true }).count(), `at ${w} px`).toBe(1);
      expect(await page.getByTestId("tests-fixed").textContent()).toContain("marks the todo");
      expect(await page.getByText(/has no test/).count(), `at ${w} px`).toBe(0);
      expect(await page.getByText(/^Complexity: /).textContent()).toBe("Complexity: simple");
      const draft = page.getByTestId("pr-draft-note");
      expect(await draft.textContent()).toContain("The pull request opens as a draft");
      await draft.scrollIntoViewIfNeeded();
      await screenshot(page, `walk8-review-${w}`);
    }
  });

  it("keeps the free period's spend on Usage after an upgrade, and says refinements use a solution", async () => {
    await payForPro(desk);
    for (const [page, w] of atBothWidths(desk, phone)) {
      await page.goto("/profile-settings?tab=usage");
      expect(await page.getByTestId("period-spend").textContent()).toMatch(/^\$0\.0+$/);
      const before = (await page.getByTestId("previous-period-spend").textContent()) ?? "";
      const usd = /^Before this period, from .+?: \$(\d+\.\d+)/.exec(before)?.[1];
      expect(Number(usd), before).toBeGreaterThan(0);
      await page.getByTestId("quota-counts").waitFor();
      await screenshot(page, `walk8-usage-after-upgrade-${w}`);
    }
  });

  it("shows a phone's toast clear of the button just pressed at the bottom of the screen", async () => {
    await phone.goto("/profile-settings?tab=usage");
    await phone.getByLabel("Per-run cap (USD)").fill("many");
    const save = phone.getByRole("button", { name: "Save caps" });
    // The button at the bottom of the screen, where a thumb presses it.
    await save.evaluate((el) => window.scrollBy(0, el.getBoundingClientRect().bottom - window.innerHeight + 12));
    await save.click();
    await toast(phone, /A cap is an amount in USD/);
    // Past its entry animation: where it stays while it shows.
    await phone
      .locator("[data-sonner-toast]")
      .first()
      .evaluate((el) => el.getAnimations().map((a) => a.finished));
    await expect
      .poll(async () => (await phone.locator("[data-sonner-toast]").first().boundingBox())?.y ?? -1)
      .toBeLessThan(100);
    const box = await phone.locator("[data-sonner-toast]").first().boundingBox();
    const button = await save.boundingBox();
    if (!box || !button) throw new Error("no toast or no button");
    const overlaps =
      box.x < button.x + button.width &&
      button.x < box.x + box.width &&
      box.y < button.y + button.height &&
      button.y < box.y + box.height;
    expect(overlaps).toBe(false);
    expect(box.y + box.height).toBeLessThan(844 / 2);
    await screenshot(phone, "walk8-toast-390");
  });

  it("logs no failed request on the solve page of an issue solved in a fork", async () => {
    await desk.goto("/contribute");
    await desk.getByRole("button", { name: "https://github.com/hubot/markdown-lint/issues/3" }).click();
    errors.set(desk, []);
    await desk.getByRole("button", { name: "Import & Solve with AI" }).click();
    await desk.waitForURL(/\/issues\/[^/]+\/solve/);
    await desk.getByTestId("solution-result").waitFor({ timeout: 90_000 });
    const url = desk.url().replace(/\?.*$/, "");
    errors.set(phone, []);
    await phone.goto(url);
    await phone.getByRole("heading", { name: /trailing-spaces ignores trailing tabs/ }).waitFor();
    await phone.waitForLoadState("networkidle");
    for (const [page, w] of atBothWidths(desk, phone)) {
      expect(errors.get(page), `at ${w} px`).toEqual([]);
      await screenshot(page, `walk8-fork-solve-${w}`);
    }
  });

  it("lists a killed worker process on /ops as lost, with when and its last jobs, until dismissed", async () => {
    const redis = new Redis(e2e.stack.env.REDIS_URL ?? "");
    const at = new Date(Date.now() - (WORKER_HEARTBEAT_TTL_SECONDS + 30) * 1000).toISOString();
    // Its last heartbeat, written before it was killed (nothing removed it).
    await writeWorkerHeartbeat(redis, e2e.stack.env.QUEUE_PREFIX ?? "", {
      id: "node-7-4242-abc123",
      host: "node-7",
      pid: 4242,
      queues: ["solve", "tests-rerun"],
      concurrency: 2,
      activeJobs: 1,
      state: "running",
      version: "test",
      startedAt: at,
      heartbeatAt: at,
      sandbox: null,
      recentJobs: ["solve #31", "solve #30"],
    });
    await redis.quit();
    for (const [page, w] of atBothWidths(desk, phone)) {
      await page.goto("/ops");
      const lost = page.getByRole("listitem", { name: "Lost worker node-7 pid 4242" });
      await lost.waitFor();
      expect(await lost.getByTestId("lost-jobs").textContent()).toBe("solve #31, solve #30");
      expect(await lost.getByTestId("lost-at").textContent()).toMatch(/ago/);
      await lost.scrollIntoViewIfNeeded();
      await screenshot(page, `walk8-ops-lost-worker-${w}`);
    }
    await phone
      .getByRole("listitem", { name: "Lost worker node-7 pid 4242" })
      .getByRole("button", { name: "Dismiss" })
      .click();
    await toast(phone, "Lost worker dismissed");
    await desk.reload();
    await desk.getByRole("heading", { name: "Worker processes" }).waitFor();
    expect(await desk.getByRole("listitem", { name: "Lost worker node-7 pid 4242" }).count()).toBe(0);
  });

  it("sends a page opened at 127.0.0.1 to PUBLIC_URL's host, where sign-in's cookies are set", async () => {
    const { page } = await e2e.newPage({ width: 390 });
    await page.goto(`${e2e.stack.url.replace("localhost", "127.0.0.1")}/auth`);
    await page.waitForURL(`${e2e.stack.url}/auth`);
    await page.getByRole("link", { name: "Continue with GitHub" }).click();
    await page.getByRole("button", { name: "Authorize as hubot" }).click();
    await page.waitForURL(/\/dashboard$/);
  });
});
