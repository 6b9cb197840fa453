import { beforeAll, describe, expect, it } from "vitest";
import { insertIssue } from "@fixloop/testkit";
import { SolutionCandidates, SolutionTests, type CandidateEvent } from "@fixloop/contract";
import { readSse, type SseEvent } from "../../test/sse.testkit";
import { solveKit } from "../../test/solve.testkit";
import { errorOf } from "../../test/testing";
import { pushFiles, TAB_TEST } from "../../test/tests-run.testkit";

const t = solveKit({ workers: ["solve", "syntax-check"] });

beforeAll(async () => {
  // A maintainer added a test for the bug in issue 3: it fails on the base commit.
  pushFiles(
    t.stack,
    "hubot",
    "markdown-lint",
    { "test/trailing-tabs.test.js": TAB_TEST },
    "Add a failing test for trailing tabs",
  );
});

const FIX = { search: "const TRAILING = / +$/;\n", replace: "const TRAILING = /[ \\t]+$/;\n" };
/** The same fix written with other spacing: folded into FIX as one more vote. */
const FIX_SPACED = { search: "const TRAILING = / +$/;\n", replace: "const  TRAILING  =  /[ \\t]+$/; \n" };
const BREAKING = { search: "const TRAILING = / +$/;\n", replace: "const TRAILING = /\\t+$/;\n" };
const answer = (edit: { search: string; replace: string }) => ({
  analysis: `TRAILING should be ${edit.replace.trim()}`,
  proposedSolution: "Match tabs too.",
  confidence: 80,
  files: [{ filename: "src/rules/trailing-spaces.js", action: "modify" as const, edits: [edit] }],
});
const isTrailing = (p: string) => p.includes("trailing-spaces");

async function solve(o: { number: number; candidates?: number; issueId?: string }) {
  const issue = o.issueId ? { id: o.issueId } : await insertIssue(t.stack.db, t.userId, { number: o.number });
  const res = await t.generate({ issueId: issue.id, ...(o.candidates ? { candidates: o.candidates } : {}) });
  expect(res.status).toBe(202);
  const { runId } = await res.json();
  const events = await readSse(await t.events(runId));
  const end = events.at(-1) as SseEvent;
  expect(end.event, JSON.stringify(end.data)).toBe("completed");
  const solutionId = (end.data as { solutionId: string }).solutionId;
  return { runId, solutionId, events, ...(await view(solutionId)) };
}

async function view(solutionId: string) {
  const res = await t.api.validations[":id"].$get({ param: { id: solutionId } });
  const { solution } = await res.json();
  return {
    solution,
    tests: SolutionTests.parse(solution.metadata.tests),
    candidates: SolutionCandidates.parse(solution.metadata.candidates),
  };
}

const select = (id: string, n: number | string) =>
  t.api.validations[":id"].candidates[":n"].select.$post({ param: { id, n: String(n) } });

describe("several candidates, chosen by evidence (real bubblewrap)", () => {
  let solved: Awaited<ReturnType<typeof solve>>;

  it("generates three candidates, folds the two equal fixes into one with two votes, tests each and picks the fix over the regression", async () => {
    t.models.control.respondPerCandidate(isTrailing, [answer(BREAKING), answer(FIX), answer(FIX_SPACED)]);
    solved = await solve({ number: 3, candidates: 3 });
    const { candidates, tests, solution, events, runId } = solved;
    expect(candidates.requested).toBe(3);
    expect(candidates.winner).toBe(2);
    expect(candidates.selected).toBe(2);
    expect(candidates.candidates.map((c) => [c.n, c.rank, c.duplicates])).toEqual([
      [1, 2, []],
      [2, 1, [3]],
    ]);
    const [first, second] = candidates.candidates;
    expect(first?.evidence.regressions).toContain("reports trailing spaces with their column");
    expect(second?.evidence).toMatchObject({ regressions: [], fixed: ["reports trailing tabs"], votes: 2 });
    expect(candidates.reason).toMatch(/^Candidate 2 won: candidate 1 breaks \d+ tests? that passed before \(/);
    expect(first?.rankReason).toMatch(/^Ranked 2: against candidate 2, candidate 1 breaks/);
    expect(second?.rankReason).toMatch(
      /^Ranked first: fixes the reproduction test, no regressions, fixes 1 test, 2 votes/,
    );
    // The winner is the solution, with its own test evidence; no repair round was needed.
    expect(solution.filesChanged[0]?.content).toContain("const TRAILING = /[ \\t]+$/;");
    expect(tests.status).toBe("passed");
    const requests = await t.stack.db
      .selectFrom("model_requests")
      .select("purpose")
      .where("run_id", "=", runId)
      .execute();
    expect(requests.map((r) => r.purpose).sort()).toEqual([
      "answer",
      "answer: candidate 2",
      "answer: candidate 3",
      "reproduction test",
    ]);
    // One row per candidate, live: generated (or folded), tested once each after one shared base run.
    const rows = events.filter((e) => e.event === "candidate").map((e) => e.data as CandidateEvent);
    expect(
      rows.filter((r) => r.state === "duplicate").map((r) => r.n),
      JSON.stringify(rows),
    ).toEqual([3]);
    expect(rows.filter((r) => r.state === "testing").map((r) => r.n)).toEqual([1, 2]);
    expect(rows.filter((r) => r.state === "tested" && r.rank === 1).map((r) => r.n)).toEqual([2]);
    expect(rows.filter((r) => r.state === "tested" && r.rank === undefined).map((r) => r.n)).toEqual([1, 2]);
    const phases = events.filter((e) => e.event === "tests" && (e.data as { done: boolean }).done);
    expect(phases.map((e) => (e.data as { phase: string }).phase)).toEqual(["base", "patched", "patched"]);
  });

  it("lets the reviewer switch to another candidate: its files, words and evidence become the solution's, recorded", async () => {
    const id = solved.solutionId;
    const res = await select(id, 1);
    expect(res.status).toBe(200);
    expect((await res.json()).switched).toBe(true);
    const after = await view(id);
    expect(after.solution.filesChanged[0]?.content).toContain("const TRAILING = /\\t+$/;");
    expect(after.solution.revision).toBe(solved.solution.revision + 1);
    expect(after.candidates.selected).toBe(1);
    expect(after.candidates.winner).toBe(2);
    expect(after.candidates.switches).toMatchObject([{ from: 2, to: 1 }]);
    expect(after.tests.status).toBe("failed");
    const revision = await t.stack.db
      .selectFrom("solution_revisions")
      .select(["kind", "reason"])
      .where("solution_id", "=", id)
      .orderBy("revision", "desc")
      .executeTakeFirstOrThrow();
    expect(revision).toEqual({ kind: "manual", reason: "Switched from candidate 2 to candidate 1" });
    // Back to the winner, then the same again: nothing changes.
    expect((await select(id, 2)).status).toBe(200);
    const again = await select(id, 2);
    expect((await again.json()).switched).toBe(false);
    expect((await view(id)).solution.filesChanged[0]?.content).toContain("const TRAILING = /[ \\t]+$/;");
  });

  it("refuses a candidate that is not there or not a number, changing nothing", async () => {
    const id = solved.solutionId;
    const before = (await view(id)).solution.revision;
    const folded = await select(id, 3);
    expect(folded.status).toBe(404);
    expect((await errorOf(folded)).code).toBe("solution.candidate_not_found");
    for (const bad of [0, 5, "x"]) {
      const r = await select(id, bad);
      expect(r.status).toBe(400);
      expect((await errorOf(r)).code).toBe("request.invalid");
    }
    expect((await view(id)).solution.revision).toBe(before);
  });

  it("refuses a bad candidates value with 400 and starts nothing; the Settings default applies, and the estimate scales by N", async () => {
    const issue = await insertIssue(t.stack.db, t.userId, { number: 13 });
    const runsBefore = await t.stack.db.selectFrom("solve_runs").select("id").execute();
    for (const candidates of [0, 5, 2.5, "2"]) {
      const res = await t.generate({ issueId: issue.id, candidates });
      expect(res.status).toBe(400);
      expect((await errorOf(res)).code).toBe("request.invalid");
    }
    expect(await t.stack.db.selectFrom("solve_runs").select("id").execute()).toHaveLength(runsBefore.length);
    const put = (n: number) => t.api.settings.candidates.$put({ json: { defaultCandidates: n } });
    expect((await put(9)).status).toBe(400);
    expect((await put(2)).status).toBe(200);
    try {
      t.models.control.respondPerCandidate(isTrailing, [answer(FIX), answer(BREAKING)]);
      const { runId, candidates } = await solve({ number: 13, issueId: issue.id });
      const run = await t.stack.db
        .selectFrom("solve_runs")
        .select("input")
        .where("id", "=", runId)
        .executeTakeFirstOrThrow();
      expect(run.input).toMatchObject({ candidates: 2 });
      expect(candidates.winner).toBe(1);
      expect(candidates.candidates.map((c) => c.n)).toEqual([1, 2]);
    } finally {
      await put(1);
    }
    const estimate = async (n: number) =>
      await (await t.api.costs.estimate.$get({ query: { candidates: String(n) } })).json();
    const [one, four] = [await estimate(1), await estimate(4)];
    // N answer requests, and one reproduction-test request whatever N.
    expect(four.lowUsd).toBeCloseTo(one.lowUsd * 4, 10);
    expect(four.reproductionUsd).toBe(one.reproductionUsd);
    expect(four.highUsd - four.reproductionUsd).toBeCloseTo((one.highUsd - one.reproductionUsd) * 4, 10);
  });
});
