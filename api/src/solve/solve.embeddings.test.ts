import { describe, expect, it } from "vitest";
import type { StepDetail } from "@fixloop/contract";
import { SANDBOX_EMBEDDING_MODEL } from "@fixloop/testkit/sandbox";
import { insertIssue } from "@fixloop/testkit";
import { solveKit } from "../../test/solve.testkit";

const t = solveKit({ env: (models) => ({ ...models.env, ...models.embeddingsEnv }) });

/** Solves the issue to the end and returns the dependencies step as stored. */
async function solve(issue: { number: number; title?: string; body?: string }) {
  const { id } = await insertIssue(t.stack.db, t.userId, issue);
  const res = await t.generate({ issueId: id }, { wait: true });
  expect(res.status).toBe(200);
  const step = await t.stack.db
    .selectFrom("run_steps")
    .innerJoin("solve_runs", "solve_runs.id", "run_steps.run_id")
    .select(["run_steps.detail", "run_steps.output", "run_steps.status"])
    .where("solve_runs.issue_id", "=", id)
    .where("run_steps.step", "=", "dependencies")
    .executeTakeFirstOrThrow();
  return {
    ...step,
    detail: step.detail as StepDetail,
    output: step.output as { files: { path: string; score: number; reasons: string[] }[] },
  };
}

const chunkInputs = () =>
  t.models.control.embeddingRequests.flatMap((r) => r.inputs).filter((s) => /^\S+\.\w+\n/.test(s));

describe("the embedding rerank of the dependencies step", () => {
  it("reranks the localizer's files by embedding similarity and says so in the step detail", async () => {
    const step = await solve({ number: 3 });
    expect(step.status).toBe("completed");
    const summary = step.detail.info.find((l) => l.startsWith("Embedding rerank"));
    expect(summary).toMatch(
      new RegExp(
        `^Embedding rerank \\(${SANDBOX_EMBEDDING_MODEL}\\) of the top \\d+ files: [1-9]\\d* chunks embedded, 0 cached, \\d+ requests \\(\\d+ ms\\)$`,
      ),
    );
    expect(step.detail.warnings.join("\n")).not.toContain("Embedding rerank");
    // The order it produced: blended scores, best first, the file the issue is about on top.
    const files = step.output.files;
    expect(step.detail.files).toEqual(files.map((f) => f.path));
    expect(files[0]?.path).toBe("src/rules/trailing-spaces.js");
    for (let i = 1; i < files.length; i++) expect(files[i]?.score).toBeLessThanOrEqual(files[i - 1]?.score ?? 0);
    for (const f of files) expect(f.reasons.join("; ")).toMatch(/embedding similarity 0\.\d\d \(lines \d+-\d+\)/);
    expect(step.detail.info).toContainEqual(
      expect.stringMatching(/^src\/rules\/trailing-spaces\.js: .*embedding similarity 0\.\d\d/),
    );
    // One request for the issue, then the chunks in batches; every chunk sent once.
    const requests = t.models.control.embeddingRequests;
    expect(requests[0]?.inputs).toEqual([expect.stringContaining("trailing-spaces ignores trailing tabs")]);
    expect(requests.every((r) => r.model === SANDBOX_EMBEDDING_MODEL)).toBe(true);
    expect(new Set(chunkInputs()).size).toBe(chunkInputs().length);
    const cached = await t.stack.db
      .selectFrom("embedding_chunks")
      .select((e) => e.fn.countAll<string>().as("n"))
      .executeTakeFirstOrThrow();
    expect(Number(cached.n)).toBe(chunkInputs().length);
  });

  it("embeds only the issue text on a second solve of the same commit", async () => {
    const step = await solve({
      number: 4,
      title: "line-length flags lines that are exactly at the limit",
      body: "A line of exactly 80 characters is reported. See `src/rules/line-length.js`.",
    });
    expect(t.models.control.embeddingRequests).toHaveLength(1);
    expect(t.models.control.embeddingRequests[0]?.inputs).toEqual([expect.stringContaining("line-length flags lines")]);
    expect(step.detail.info).toContainEqual(
      expect.stringMatching(/: 0 chunks embedded, [1-9]\d* cached, 1 request \(/),
    );
    expect(step.detail.files[0]).toBe("src/rules/line-length.js");
  });

  it("keeps the localizer's ranking, with a note, when the embeddings endpoint fails", async () => {
    t.models.control.failEmbeddingsNext({ status: 500, times: 2 });
    const step = await solve({ number: 5 });
    expect(step.status).toBe("completed");
    expect(t.models.control.embeddingRequests.length).toBeGreaterThan(0);
    expect(step.detail.warnings).toContainEqual(
      expect.stringMatching(/^Embedding rerank skipped \(.+\); the localizer's ranking is kept$/),
    );
    expect(step.detail.info.some((l) => l.startsWith("Embedding rerank"))).toBe(false);
    expect(step.output.files.length).toBeGreaterThan(0);
    for (const f of step.output.files) expect(f.reasons.join("; ")).not.toContain("embedding similarity");
  });
});
