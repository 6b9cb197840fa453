import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { SANDBOX_EMBEDDING_MODEL } from "@fixloop/testkit/sandbox";
import { generate, openSolve, screenshot, signInWithTodoApi, startE2E, type E2E } from "./e2e.harness";

let e2e: E2E;
let phone: Page;

beforeAll(async () => {
  // The stand-in serves the embeddings endpoint; naming a model turns the rerank on.
  e2e = await startE2E("embeddings", { EMBEDDINGS_MODEL: SANDBOX_EMBEDDING_MODEL });
  ({ page: phone } = await e2e.newPage({ width: 390 }));
  await signInWithTodoApi(phone);
});
afterAll(async () => {
  await e2e?.stop();
});

describe("the embedding rerank on the solve page (390 px)", () => {
  it("says in the dependency step that it ran, with the model and the chunks embedded and cached", async () => {
    // A slow model keeps the run, and so the steps panel, on screen while the step is read.
    e2e.models.latency(15_000);
    await openSolve(phone, "Whitespace-only titles are accepted");
    await generate(phone);
    await phone.locator('[data-step="generating"][data-status="running"]').waitFor({ timeout: 60_000 });
    const step = phone.locator('[data-step="dependencies"]');
    await step.getByRole("button", { name: /Building Dependency Graph/ }).click();
    const line = step
      .getByTestId("step-detail")
      .getByText(
        new RegExp(
          `^Embedding rerank \\(${SANDBOX_EMBEDDING_MODEL}\\) of the top \\d+ files: [1-9]\\d* chunks embedded, 0 cached`,
        ),
      );
    await line.waitFor();
    expect(await line.evaluate((el) => el.getBoundingClientRect().right <= window.innerWidth)).toBe(true);
    expect(await line.evaluate((el) => parseFloat(getComputedStyle(el).fontSize))).toBeGreaterThanOrEqual(12);
    expect(await phone.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    expect(e2e.models.embeddingRequests.length).toBeGreaterThan(1);
    await screenshot(phone, "embedding-rerank-390");
    e2e.models.latency(0);
    await phone.getByTestId("solution-result").waitFor({ timeout: 90_000 });
  });
});
