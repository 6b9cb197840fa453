import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { SANDBOX_OFF_STATEMENT } from "@fixloop/contract";
import { generate, openSolve, screenshot, signInWithTodoApi, startE2E, type E2E } from "./e2e.harness";

// A deployment whose operator turned the sandbox off on purpose: its workers take solves, and
// every solution must say at its top that its tests were not run, not only inside a step.
let e2e: E2E;
let page: Page;
let phone: Page;

beforeAll(async () => {
  e2e = await startE2E("sandbox-off", { SANDBOX_BACKEND: "off" });
  const desk = await e2e.newPage();
  page = desk.page;
  await signInWithTodoApi(page);
  // The phone reads the same solution in the same session.
  const small = await e2e.newPage({ width: 390 });
  await small.context.addCookies(await desk.context.cookies());
  phone = small.page;
  e2e.models.respondWith(() => true, {
    analysis: "Blank titles pass the length check.",
    proposedSolution: "Trim the title and reject an empty one.",
    confidence: 80,
    files: [{ filename: "NOTE.md", action: "create" as const, edits: [], content: "# Note\n" }],
  });
  // A test command is set: with a sandbox it would run, here it must not.
  const status = await page.evaluate(async () => {
    const res = await fetch("/api/github/repositories/octocat/todo-api/test-settings", {
      method: "PUT",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ command: "npm test", setup: null, timeoutSeconds: 120, setupNetwork: false }),
    });
    return res.status;
  });
  expect(status).toBe(200);
});
afterAll(async () => {
  await e2e?.stop();
});

/** The page's own header (the one holding its title), its tests-not-run notice, and where it sits. */
async function headerNotice(p: Page) {
  const header = p.locator("header").filter({ has: p.getByRole("heading", { level: 1 }) });
  const notice = header.getByTestId("tests-not-run");
  await notice.waitFor();
  const box = await notice.boundingBox();
  const decision = await p.getByRole("heading", { name: "Validation Decision" }).boundingBox();
  return { text: (await notice.textContent())?.trim(), role: await notice.getAttribute("role"), box, decision };
}

describe("a solution made by a worker with SANDBOX_BACKEND=off", () => {
  it("says at the top of the run's result and in its page header, without scrolling, that its tests were not run (1280 and 390 px)", async () => {
    await openSolve(page, "Whitespace-only titles are accepted");
    await generate(page);
    // The run's result says it first too, before the analysis and the diff.
    const result = page.getByTestId("solution-result");
    await result.waitFor({ timeout: 90_000 });
    const first = result.locator(":scope > *").first();
    expect(await first.getAttribute("data-testid")).toBe("tests-not-run");
    expect((await first.textContent())?.trim()).toBe(SANDBOX_OFF_STATEMENT);
    await screenshot(page, "sandbox-off-run-1280");
    await page.getByRole("link", { name: "Review & Validate" }).click();
    await page.waitForURL(/\/validations\/[^/]+$/);
    await page.getByRole("heading", { name: "Validation Decision" }).waitFor();
    const url = page.url();
    // The run's Validating step says why too; the header does not rely on it.
    const tests = await page.evaluate(async (u) => {
      const id = u.split("/").pop() ?? "";
      const { solution } = (await (await fetch(`/api/validations/${id}`)).json()) as {
        solution: { metadata: { tests: { backend: string; status: string } | null } };
      };
      return solution.metadata.tests;
    }, url);
    expect(tests).toMatchObject({ backend: "off", status: "skipped" });

    for (const [p, width] of [
      [page, 1280],
      [phone, 390],
    ] as const) {
      if (p === phone) await phone.goto(url);
      const n = await headerNotice(p);
      expect(n.text, `${width}`).toBe(SANDBOX_OFF_STATEMENT);
      expect(n.role).toBe("note");
      // Seen on arrival: inside the first screen, and before the decision panel.
      expect(n.box, `${width}`).not.toBeNull();
      expect((n.box?.y ?? 0) + (n.box?.height ?? 0), `${width}`).toBeLessThanOrEqual(900);
      expect(n.box?.y ?? 0, `${width}`).toBeLessThan(n.decision?.y ?? 0);
      const overflow = await p.evaluate(
        () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
      );
      expect(overflow, `${width}`).toBeLessThanOrEqual(0);
      // The tests panel does not claim the repository has no test command: nobody looked.
      expect(await p.getByTestId("tests-command").textContent()).toBe("not looked for (sandbox off)");
      await screenshot(p, `sandbox-off-solution-${width}`);
    }
  });
});
