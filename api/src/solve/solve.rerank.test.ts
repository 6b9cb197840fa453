import { beforeEach, describe, expect, it } from "vitest";
import { setSpendingCaps } from "@fixloop/db";
import { insertIssue } from "@fixloop/testkit";
import type { StepRerank, StepSymbol } from "@fixloop/contract";
import { readSse } from "../../test/sse.testkit";
import { solveKit } from "../../test/solve.testkit";

const t = solveKit({ env: (models) => ({ ...models.env, MODEL_RERANK: "on" }) });

let n = 40;
beforeEach(async () => {
  await setSpendingCaps(t.stack.db, t.userId, { runUsd: null, monthlyUsd: null });
});

/** The seeded line-length issue, without the hint naming the file. */
async function solve() {
  const issue = await insertIssue(t.stack.db, t.userId, {
    number: n++,
    title: "line-length flags lines that are exactly at the limit",
    body: "With the default limit of 80, a line of exactly 80 characters is reported as too long. Only lines longer than the limit should be reported.",
  });
  const res = await t.generate({ issueId: issue.id });
  const { runId } = await res.json();
  const events = await readSse(await t.events(runId));
  const step = await t.stack.db
    .selectFrom("run_steps")
    .select("detail")
    .where("run_id", "=", runId)
    .where("step", "=", "dependencies")
    .executeTakeFirstOrThrow();
  const detail = step.detail as {
    files: string[];
    info: string[];
    warnings: string[];
    rerank?: StepRerank;
    symbols?: StepSymbol[];
  };
  const requests = await t.stack.db
    .selectFrom("model_requests")
    .select(["step", "purpose"])
    .where("run_id", "=", runId)
    .orderBy("created_at")
    .execute();
  return { end: events.at(-1)?.event, detail, requests };
}

describe("model-assisted rerank in step 3", () => {
  it("puts the file the model picks first and shows the no-model ranking beside it", async () => {
    const { end, detail, requests } = await solve();
    expect(end).toBe("completed");
    expect(detail.rerank?.status).toBe("applied");
    expect(detail.rerank?.picks.map((p) => p.path)).toEqual(["src/rules/line-length.js"]);
    expect(detail.rerank?.before).toContain("src/rules/line-length.js");
    expect(detail.rerank?.before.length).toBeGreaterThan(1);
    expect(detail.files[0]).toBe("src/rules/line-length.js");
    expect(detail.info.some((l) => l.startsWith("Model rerank by"))).toBe(true);
    expect(requests[0]).toEqual({ step: "dependencies", purpose: "rerank" });
    expect(requests.some((r) => r.step === "generating")).toBe(true);
    const rerankPrompt = t.models.control.requests[0]?.prompt ?? "";
    expect(rerankPrompt).toContain("### File: src/rules/line-length.js");
    expect(detail.symbols?.some((s) => s.path === detail.files[0] && s.reasons.length > 0)).toBe(true);
  });

  it("falls back to the no-model ranking with a note when the model answers nonsense twice", async () => {
    t.models.control.malformedNext(2);
    const { end, detail, requests } = await solve();
    expect(end).toBe("completed");
    expect(detail.rerank?.status).toBe("failed");
    expect(detail.rerank?.picks).toEqual([]);
    expect(detail.warnings.join("\n")).toMatch(/Model rerank failed .*kept the no-model ranking/);
    expect(detail.files[0]).toBe(detail.rerank?.before[0]);
    expect(requests.some((r) => r.step === "generating")).toBe(true);
  });

  it("is skipped with a note when the run's cost cap would be passed", async () => {
    await setSpendingCaps(t.stack.db, t.userId, { runUsd: 0.0000001, monthlyUsd: null });
    const { detail, requests } = await solve();
    expect(detail.rerank?.status).toBe("skipped");
    expect(detail.rerank?.note).toMatch(/Model rerank skipped: .*per-run cap/);
    expect(requests).toEqual([]);
    expect(t.models.control.requests).toEqual([]);
  });
});
