import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { openSolve, screenshot, seriousA11yViolations, signIn, startE2E, type E2E } from "./e2e.harness";
import { bringIn, review } from "./tests-evidence.helpers";

// The Investigate agent's trajectory, live on the solve page and kept on the finished solution.
let e2e: E2E;
let page: Page;

beforeAll(async () => {
  e2e = await startE2E("agent");
  ({ page } = await e2e.newPage());
  await bringIn(page, "hubot", "hubot/markdown-lint");
});
afterAll(async () => {
  await e2e?.stop();
});

const RULE = "src/rules/trailing-spaces.js";

describe("the Investigate agent in the browser", () => {
  it("streams each action live, then keeps the trajectory beside What the model saw (1280 and 390 px)", async () => {
    e2e.models.agentWith(
      (task) => task.includes("trailing-spaces"),
      [
        { tool: "search", args: { query: "TRAILING" } },
        { tool: "open_file", args: { path: "../outside.txt" } },
        { tool: "run", args: { command: "sleep 2; node --test 2>&1 | tail -5" } },
        {
          tool: "edit",
          args: {
            path: RULE,
            action: "modify",
            edits: [{ search: "const TRAILING = / +$/;\n", replace: "const TRAILING = /[ \\t]+$/;\n" }],
          },
        },
        {
          tool: "submit",
          args: { analysis: "TRAILING only matches spaces.", proposedSolution: "Match tabs too.", confidence: 80 },
        },
      ],
    );
    await openSolve(page, "trailing-spaces ignores trailing tabs");
    await page.getByLabel("Solve mode", { exact: true }).selectOption("investigate");
    expect(await page.getByTestId("cost-estimate").textContent()).toContain("Single pass:");
    await page.getByRole("button", { name: "Generate Solution" }).click();
    // Live: the search shows before the run's command has ended.
    const live = page.getByTestId("agent-actions");
    await live.getByText("Searched", { exact: true }).waitFor({ timeout: 90_000 });
    await live.getByText("refused", { exact: true }).waitFor({ timeout: 30_000 });
    await page.getByTestId("agent-ended").waitFor({ timeout: 90_000 });
    expect(await live.textContent()).toContain("Ran");
    expect(await page.getByTestId("agent-ended").textContent()).toContain("the agent submitted its fix");
    await screenshot(page, "solve-agent");

    await review(page);
    const kept = page.getByTestId("agent-actions");
    await kept.waitFor();
    expect(await kept.textContent()).toContain(`modify ${RULE}`);
    await kept.getByText("Edited", { exact: true }).click();
    await kept.getByText("+const TRAILING = /[ \\t]+$/;").waitFor();
    await screenshot(page, "validate-agent");
    expect(await seriousA11yViolations(page)).toEqual([]);

    const { page: narrow } = await e2e.newPage({ width: 390 });
    await signIn(narrow, "hubot");
    await narrow.goto(page.url());
    await narrow.getByTestId("agent-actions").waitFor();
    const overflow = await narrow.evaluate(
      () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
    );
    expect(overflow).toBeLessThanOrEqual(0);
    await screenshot(narrow, "validate-agent-390");
  });
});
