import { describe, expect, it } from "vitest";
import { filesChanged } from "@fixloop/db";
import { SYNTAX_NOT_CHECKED } from "@fixloop/contract";
import { ORIGINAL, PROPOSED, solutionsSetup as setup } from "../../test/solutions.testkit";
import { errorOf } from "../../test/testing";

describe("editing a solution (POST /api/validations/:id/modify)", () => {
  it("refuses a modification made from stale contents with 409 and keeps the solution as it was", async () => {
    const { api, solutionId, db } = await setup();
    const res = await api[":id"].modify.$post({
      param: { id: solutionId },
      json: {
        modifications: [
          { filename: "src/paginate.ts", originalContent: ORIGINAL, modifiedContent: "// mine\n", reason: "tidy" },
        ],
      },
    });
    expect(res.status).toBe(409);
    expect((await errorOf(res)).code).toBe("solution.stale");
    const row = await db
      .selectFrom("solutions")
      .select(["revision", "files_changed"])
      .where("id", "=", solutionId)
      .executeTakeFirstOrThrow();
    expect(row.revision).toBe(1);
    expect(filesChanged.read(row.files_changed)[0]?.content).toBe(PROPOSED);
    expect(await db.selectFrom("solution_revisions").selectAll().execute()).toEqual([]);
  });

  it("stores a manual edit as a new revision with its reason and re-validates the new contents", async () => {
    const { api, solutionId, db } = await setup();
    const edited =
      "// Pages are 1-based; slice() is end-exclusive.\nexport const start = (page: number, size: number) => (page - 1) * size;\n";
    const res = await api[":id"].modify.$post({
      param: { id: solutionId },
      json: { modifications: [{ filename: "src/paginate.ts", originalContent: PROPOSED, modifiedContent: edited }] },
    });
    expect(res.status).toBe(200);
    const { solution } = await res.json();
    expect(solution.filesChanged[0]?.content).toBe(edited);
    expect(solution.revision).toBe(2);
    expect(solution.metadata.validation.stats).toMatchObject({ linesAdded: 2, linesRemoved: 1 });
    const revisions = await db
      .selectFrom("solution_revisions")
      .select(["revision", "kind", "reason", "files_changed"])
      .orderBy("revision")
      .execute();
    expect(revisions.map((r) => [r.revision, r.kind, r.reason])).toEqual([
      [1, "generated", null],
      [2, "manual", "Manual modification"],
    ]);
    expect(filesChanged.read(revisions[0]?.files_changed)[0]?.content).toBe(PROPOSED);

    const again = await api[":id"].modify.$post({
      param: { id: solutionId },
      json: {
        modifications: [
          { filename: "src/paginate.ts", originalContent: edited, modifiedContent: PROPOSED, reason: "Keep it short" },
        ],
      },
    });
    expect(again.status).toBe(200);
    const last = await db
      .selectFrom("solution_revisions")
      .select(["reason"])
      .where("revision", "=", 3)
      .executeTakeFirstOrThrow();
    expect(last.reason).toBe("Keep it short");
  });

  it("refuses an edit the pull-request job would refuse as too large or binary, in the job's words, and writes nothing", async () => {
    const { api, solutionId } = await setup({ env: { PR_MAX_BYTES: "200", PR_MAX_CHANGED_LINES: "20" } });
    const big = `${PROPOSED}${"// padding\n".repeat(30)}`;
    const res = await api[":id"].modify.$post({
      param: { id: solutionId },
      json: { modifications: [{ filename: "src/paginate.ts", originalContent: PROPOSED, modifiedContent: big }] },
    });
    expect(res.status).toBe(422);
    expect(await res.json()).toEqual({
      error: {
        code: "solution.too_large",
        message: "The change has 32 changed lines; at most 20 are allowed in one pull request",
      },
    });
    const binary = await api[":id"].modify.$post({
      param: { id: solutionId },
      json: {
        modifications: [{ filename: "src/paginate.ts", originalContent: PROPOSED, modifiedContent: "a\uFFFDb\n" }],
      },
    });
    expect(binary.status).toBe(422);
    expect((await errorOf(binary)).message).toBe(
      "src/paginate.ts: binary content is refused unless the file was binary before",
    );
    const { solution } = await (await api[":id"].$get({ param: { id: solutionId } })).json();
    expect(solution.revision).toBe(1);
    expect(solution.filesChanged[0]?.content).toBe(PROPOSED);
  });

  it("saves an edit that does not parse, with the worker's syntax error among the validation errors", async () => {
    const { api, solutionId } = await setup();
    const broken = "export const start = (page: number, size: number) => (page - 1) * size;\nexport const end = (;\n";
    const res = await api[":id"].modify.$post({
      param: { id: solutionId },
      json: { modifications: [{ filename: "src/paginate.ts", originalContent: PROPOSED, modifiedContent: broken }] },
    });
    expect(res.status).toBe(200);
    const { solution } = await res.json();
    expect(solution.filesChanged[0]?.content).toBe(broken);
    expect(solution.revision).toBe(2);
    expect(solution.metadata.advancedValidation.errors).toEqual([
      { message: "src/paginate.ts: does not parse as typescript (syntax error near line 2)" },
    ]);
    expect(solution.metadata.validation.warnings).not.toContain(SYNTAX_NOT_CHECKED);

    // Fixing the edit clears the error again.
    const fixed = await api[":id"].modify.$post({
      param: { id: solutionId },
      json: { modifications: [{ filename: "src/paginate.ts", originalContent: broken, modifiedContent: PROPOSED }] },
    });
    const after = await fixed.json();
    expect(after.solution.metadata.advancedValidation.errors).toEqual([]);
  });

  it("saves the edit marked 'syntax not checked' when no worker answers within the wait, and leaves no job behind", async () => {
    const { api, solutionId, deps } = await setup({ env: { JOB_WAIT_SECONDS: "1" }, worker: false });
    const started = Date.now();
    const res = await api[":id"].modify.$post({
      param: { id: solutionId },
      json: { modifications: [{ filename: "src/paginate.ts", originalContent: PROPOSED, modifiedContent: "(\n" }] },
    });
    expect(Date.now() - started).toBeLessThan(4_000);
    expect(res.status).toBe(200);
    const { solution } = await res.json();
    expect(solution.filesChanged[0]?.content).toBe("(\n");
    expect(solution.metadata.validation.warnings).toContain(SYNTAX_NOT_CHECKED);
    expect(solution.metadata.advancedValidation.errors).toEqual([]);
    expect(await deps.queues.syntaxCheck.getJobCounts()).toMatchObject({ waiting: 0, active: 0, delayed: 0 });
  });

  it("refuses a modification of a file outside the solution", async () => {
    const { api, solutionId } = await setup();
    const res = await api[":id"].modify.$post({
      param: { id: solutionId },
      json: {
        modifications: [{ filename: ".github/workflows/ci.yml", originalContent: "", modifiedContent: "on: push" }],
      },
    });
    expect(res.status).toBe(400);
  });
});
