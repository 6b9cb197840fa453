import { describe, expect, it } from "vitest";
import { filesChanged } from "@fixloop/db";
import { STEPS, runEventsKey } from "@fixloop/contract";
import { insertIssue } from "@fixloop/testkit";
import { readSse, type SseEvent } from "../../test/sse.testkit";
import { solveKit } from "../../test/solve.testkit";

const t = solveKit();

async function generate(issueId: string, modelId?: string) {
  const res = await t.generate({ issueId, modelId });
  return { status: res.status, body: await res.json() };
}

describe("solving an issue", () => {
  it("streams the five steps in order and ends with a complete solution", async () => {
    const issue = await insertIssue(t.stack.db, t.userId, { number: 3 });
    const { status, body } = await generate(issue.id);
    expect(status).toBe(202);
    const res = await t.events(body.runId ?? "");
    expect(res.headers.get("x-accel-buffering")).toBe("no");
    const got = await readSse(res);
    expect(got[0]?.event).toBe("snapshot");
    const steps = got
      .filter((e) => e.event === "step")
      .map(
        (e) =>
          e.data as {
            step: string;
            status: string;
            detail: { info: string[]; score?: number };
            cost?: { estimateUsd?: number };
          },
      );
    // A running step may report progress more than once before it completes (generating also announces its cost estimate).
    const order = steps.map((s) => `${s.step}:${s.status}`).filter((k, i, all) => k !== all[i - 1]);
    expect(order).toEqual(STEPS.flatMap((s) => [`${s}:running`, `${s}:completed`]));
    const generating = steps.filter((s) => s.step === "generating" && s.status === "running");
    // Its progress: the reproduction test's line (asked first, on the base tree), then the model's request.
    expect(
      generating.some((s) =>
        /^Reproduction test .+\nModel: .+\n.*waiting for its answer$/.test(s.detail.info.join("\n")),
      ),
    ).toBe(true);
    expect(generating.some((s) => s.cost?.estimateUsd !== undefined)).toBe(true);
    for (const s of steps.filter((x) => x.status === "completed")) expect(s.detail.info.length).toBeGreaterThan(0);
    const deps = steps.find((s) => s.step === "dependencies" && s.status === "completed");
    expect(JSON.stringify(deps)).toContain("src/rules/trailing-spaces.js");
    const end = got.at(-1) as SseEvent;
    expect(end.event).toBe("completed");
    const solutionId = (end.data as { solutionId: string }).solutionId;

    const sol = await t.stack.db
      .selectFrom("solutions")
      .selectAll()
      .where("id", "=", solutionId)
      .executeTakeFirstOrThrow();
    expect(sol.analysis.length).toBeGreaterThan(10);
    const files = filesChanged.read(sol.files_changed);
    expect(files[0]?.filename).toBe("src/rules/trailing-spaces.js");
    expect(files[0]?.content).not.toBe(files[0]?.originalContent);
    const meta = sol.metadata as Record<string, any>;
    expect(meta.repository).toBe("hubot/markdown-lint");
    expect(meta.classification).toEqual({ type: "bug", complexity: expect.any(String) });
    expect(meta.validation.stats.filesChanged).toBe(1);
    expect(["low", "medium", "high", "critical"]).toContain(meta.validation.riskLevel);
    expect(meta.advancedValidation.score).toBeGreaterThan(0);
    expect(meta.refinementCount).toBe(0);
    const issueRow = await t.stack.db
      .selectFrom("issues")
      .select("status")
      .where("id", "=", issue.id)
      .executeTakeFirstOrThrow();
    expect(issueRow.status).toBe("solved");
    const run = await t.api.runs[":id"].$get({ param: { id: body.runId } });
    const view = await run.json();
    expect(view.run.status).toBe("completed");
    expect(view.run.tokensIn).toBeGreaterThan(0);
    expect(view.run.steps.every((s) => s.status === "completed")).toBe(true);
    const runRow = await t.stack.db
      .selectFrom("solve_runs")
      .select("quota_state")
      .where("id", "=", body.runId ?? "")
      .executeTakeFirstOrThrow();
    expect(runRow.quota_state).toBe("charged");
    // The prompt fenced the issue as untrusted data.
    expect(t.models.control.requests.at(-1)?.prompt).toContain("<untrusted_issue>");
  });

  it("returns the existing run for a second request on the same issue", async () => {
    const issue = await insertIssue(t.stack.db, t.userId, {
      number: 4,
      title: "line-length flags lines that are exactly at the limit",
      body: "See `src/rules/line-length.js`.",
    });
    t.models.control.latency(1500);
    const [a, b] = await Promise.all([generate(issue.id), generate(issue.id)]);
    expect(a.status).toBe(202);
    expect(b.status).toBe(202);
    expect(a.body.runId).toBe(b.body.runId);
    await readSse(await t.events(a.body.runId ?? ""));
  });

  it("resumes after a reconnect with Last-Event-ID, delivering every event exactly once", async () => {
    const issue = await insertIssue(t.stack.db, t.userId, {
      number: 5,
      title: "README shows a `--max-length` flag that does not exist",
      body: "See `README.md` and `bin/mdlint.js`.",
    });
    t.models.control.latency(1500);
    const { body } = await generate(issue.id);
    const runId = body.runId ?? "";
    const ac = new AbortController();
    const first = await readSse(
      await t.events(runId, {}, ac.signal),
      (e) => !(e.event === "step" && (e.data as { step: string }).step === "dependencies"),
    );
    ac.abort();
    const lastId = first.at(-1)?.id ?? "";
    expect(lastId).toMatch(/^\d+-\d+$/);
    const second = await readSse(await t.events(runId, { "last-event-id": lastId }));
    expect(second[0]?.event).toBe("snapshot");
    const ids = [...first.slice(1), ...second.slice(1)].map((e) => e.id);
    expect(first.length).toBeGreaterThan(2);
    const stored = (await t.stack.redis.xrange(runEventsKey(t.stack.prefix, runId), "-", "+")).map(([id]) => id);
    expect(ids).toEqual(stored);
    expect(second.at(-1)?.event).toBe("completed");
  });

  it("answers 404 for another user's run and events", async () => {
    const issue = await insertIssue(t.stack.db, t.userId, { number: 6 });
    const { body } = await generate(issue.id);
    const other = await t.stack.signIn("monalisa");
    const theirs = t.stack.client(other.headers);
    const param = { id: body.runId };
    for (const res of [await theirs.runs[":id"].$get({ param }), await theirs.runs[":id"].events.$get({ param })])
      expect(res.status).toBe(404);
    const res = await theirs.ai["generate-solution"].$post({ query: {}, json: { issueId: issue.id } });
    expect(res.status).toBe(404);
    await readSse(await t.events(body.runId ?? ""));
  });
});
