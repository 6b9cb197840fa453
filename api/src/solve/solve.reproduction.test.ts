import { describe, expect, it } from "vitest";
import { steps } from "@fixloop/db";
import { eventually, insertIssue } from "@fixloop/testkit";
import {
  REPRODUCTION_TOOL,
  SolutionCandidates,
  SolutionReproduction,
  SolutionUnverified,
  StepDetail,
} from "@fixloop/contract";
import { readSse, type SseEvent } from "../../test/sse.testkit";
import { solveKit } from "../../test/solve.testkit";
import { approveVia } from "../../test/pull-requests.fixtures";
import { errorOf } from "../../test/testing";

const t = solveKit({ workers: ["solve", "syntax-check", "pull-request"] });

const LINE = "const TRAILING = / +$/;\n";
const FIX = { search: LINE, replace: "const TRAILING = /[ \\t]+$/;\n" };
/** Changes the pattern without changing what it matches: the tests pass, the reproduction still fails. */
const NO_FIX = { search: LINE, replace: "const TRAILING = / +$/u;\n" };
/** Tabs only: the reproduction passes, the trailing-spaces tests break. */
const BREAKING = { search: LINE, replace: "const TRAILING = /\\t+$/;\n" };
/** Matches nothing: the trailing-spaces tests break and the reproduction still fails. */
const BREAKING_2 = { search: LINE, replace: "const TRAILING = /(?!)/;\n" };
const answer = (edit: { search: string; replace: string }) => ({
  analysis: `TRAILING should be ${edit.replace.trim()}`,
  proposedSolution: "Match tabs too.",
  confidence: 80,
  files: [{ filename: "src/rules/trailing-spaces.js", action: "modify" as const, edits: [edit] }],
});
const isTrailing = (p: string) => p.includes("trailing-spaces");
const REPRO = "test/trailing-tab-reproduction.test.js";

/** The first case's run: its steps 1-4 are copied into a run resumed at step 5. */
let keptRun = "";

/** Whose session the requests carry: octocat's unless a test signs in the repository's owner. */
let as: { headers: Record<string, string>; userId: string } | null = null;
const headers = () => as?.headers ?? t.headers;

async function run(number: number, candidates: number) {
  const issue = await insertIssue(t.stack.db, as?.userId ?? t.userId, { number });
  const res = await api().ai["generate-solution"].$post({ query: {}, json: { issueId: issue.id, candidates } });
  expect(res.status).toBe(202);
  const { runId } = await res.json();
  const events = await readSse(await api().runs[":id"].events.$get({ param: { id: runId } }));
  return { issueId: issue.id, runId, events, end: events.at(-1) as SseEvent };
}

async function solve(number: number, candidates: number) {
  const r = await run(number, candidates);
  expect(r.end.event, JSON.stringify(r.end.data)).toBe("completed");
  const solutionId = (r.end.data as { solutionId: string }).solutionId;
  return { ...r, solutionId, ...(await view(solutionId)) };
}

async function view(id: string) {
  const res = await api().validations[":id"].$get({ param: { id } });
  const { solution } = await res.json();
  return { solution, files: solution.filesChanged.map((f) => f.filename), meta: solution.metadata };
}

async function stepDetail(runId: string, step: "generating" | "validating") {
  const row = await t.stack.db
    .selectFrom("run_steps")
    .select("detail")
    .where("run_id", "=", runId)
    .where("step", "=", step)
    .executeTakeFirstOrThrow();
  return row.detail as { info: string[]; warnings: string[] };
}
const validatingDetail = (runId: string) => stepDetail(runId, "validating");

/** What step 4 said while it ran (its live `running` events), in order. */
const liveGenerating = (events: SseEvent[]) =>
  events.flatMap((e) => {
    const d = e.data as { type?: string; step?: string; status?: string; detail?: { info: string[] } };
    return e.event === "step" && d.step === "generating" && d.status === "running" ? (d.detail?.info ?? []) : [];
  });

/** A run whose steps 1-4 are another run's, stored before its job is served: it starts at step 5. */
async function resumedAtValidating(number: number, from: string): Promise<string> {
  const queue = t.stack.deps.queues.solve;
  await queue.pause();
  try {
    const issue = await insertIssue(t.stack.db, t.userId, { number });
    const res = await api().ai["generate-solution"].$post({ query: {}, json: { issueId: issue.id, candidates: 3 } });
    const { runId } = await res.json();
    const done = await t.stack.db
      .selectFrom("run_steps")
      .select(["step", "detail", "output"])
      .where("run_id", "=", from)
      .where("step", "in", ["analyzing", "context", "dependencies", "generating"])
      .execute();
    await steps.copyCompleted(
      t.stack.db,
      runId,
      done.map((r) => ({ ...r, detail: StepDetail.parse(r.detail) })),
    );
    return runId;
  } finally {
    await queue.resume();
  }
}

/** The typed client of whoever the requests are made as (see `as`). */
const api = () => t.stack.client(headers());
const includeReproduction = (id: string) => api().validations[":id"].reproduction.include.$post({ param: { id } });

describe("reproduction test and abstention (real bubblewrap)", () => {
  it("keeps a reproduction test that fails on the base tree and picks the candidate that makes it pass", async () => {
    t.models.control.respondPerCandidate(isTrailing, [answer(NO_FIX), answer(BREAKING), answer(FIX)]);
    const { runId, solutionId, files, meta, events } = await solve(3, 3);
    const repro = SolutionReproduction.parse(meta.reproduction);
    expect(repro).toMatchObject({ filename: REPRO, status: "kept", passesWithSolution: true });
    expect(repro.note).toBe(
      `Reproduction test kept: ${REPRO} fails on the base tree (reproduction: a line ending in a tab is reported)`,
    );
    const set = SolutionCandidates.parse(meta.candidates);
    // Without the reproduction, candidate 1 (as small, no regression) would win on generation order.
    expect(set.winner).toBe(3);
    expect(set.candidates.map((c) => [c.n, c.evidence.reproduction?.status, c.rank])).toEqual([
      [1, "still-failing", 3],
      [2, "fixed", 2],
      [3, "fixed", 1],
    ]);
    expect(set.reason).toContain("it makes the reproduction test pass; candidate 1 does not (it still fails)");
    expect(set.reason).toContain("candidate 2 breaks");
    expect(meta.unverified).toBeNull();
    expect(meta.reproductionPasses).toBe(true);
    expect(files).toEqual(["src/rules/trailing-spaces.js"]);
    keptRun = runId;
    expect((await validatingDetail(runId)).info).toContain(repro.note);
    const requests = await t.stack.db
      .selectFrom("model_requests")
      .select(["step", "purpose"])
      .where("run_id", "=", runId)
      .where("purpose", "=", "reproduction test")
      .execute();
    // Asked before the fix: by step 4, ahead of every candidate's request, and said in that step.
    expect(requests).toEqual([{ step: "generating", purpose: "reproduction test" }]);
    expect(t.models.control.requests.map((r) => r.tool === REPRODUCTION_TOOL)).toEqual([true, false, false, false]);
    expect((await stepDetail(runId, "generating")).info[0]).toBe(repro.note);
    const live = liveGenerating(events);
    expect(live.indexOf(repro.note)).toBeGreaterThan(-1);
    expect(live.indexOf(repro.note)).toBeLessThan(live.findIndex((l) => l.startsWith("Sent ")));
    // The reviewer asks for the test in the pull request: it joins the files once.
    const inc = await includeReproduction(solutionId);
    expect((await inc.json()).included).toBe(true);
    const withTest = await view(solutionId);
    expect(withTest.files).toEqual(["src/rules/trailing-spaces.js", REPRO]);
    expect(withTest.meta.validation.stats).toMatchObject({ filesChanged: 2, newFiles: 1 });
    const again = await includeReproduction(solutionId);
    expect((await again.json()).included).toBe(false);
  });

  it("resumed at step 5 with no base tree left by step 4 in this process, scores the candidates on step 4's stored test without asking again", async () => {
    expect(keptRun).not.toBe("");
    // As after a worker restart: steps 1-4 are stored; step 5 runs where step 4 never prepared its base tree.
    const runId = await resumedAtValidating(53, keptRun);
    const events = await readSse(await api().runs[":id"].events.$get({ param: { id: runId } }));
    const end = events.at(-1) as SseEvent;
    expect(end.event, JSON.stringify(end.data)).toBe("completed");
    const { meta } = await view((end.data as { solutionId: string }).solutionId);
    const repro = SolutionReproduction.parse(meta.reproduction);
    expect(repro).toMatchObject({ filename: REPRO, status: "kept", passesWithSolution: true });
    const set = SolutionCandidates.parse(meta.candidates);
    expect(set.candidates.map((c) => [c.n, c.evidence.reproduction?.status])).toEqual([
      [1, "still-failing"],
      [2, "fixed"],
      [3, "fixed"],
    ]);
    expect(set.winner).toBe(3);
    // Nothing was asked again: step 4's test scored the candidates on a base tree prepared anew (its results cached).
    expect(t.models.control.requests).toEqual([]);
    expect(await t.stack.db.selectFrom("model_requests").select("id").where("run_id", "=", runId).execute()).toEqual(
      [],
    );
    const base = events.find((e) => e.event === "tests" && (e.data as { phase: string }).phase === "base");
    expect((base?.data as { output: string }).output).toContain("reused");
    expect((await validatingDetail(runId)).info).toContain(repro.note);
  });

  it("cancelled while step 4 waits for the reproduction test: that request is aborted, no candidate is asked, the run ends within 2 s", async () => {
    t.models.control.hangNext();
    const issue = await insertIssue(t.stack.db, t.userId, { number: 63 });
    const res = await api().ai["generate-solution"].$post({ query: {}, json: { issueId: issue.id, candidates: 2 } });
    const { runId } = await res.json();
    await eventually(() => t.models.control.requests.length > 0, { what: "the reproduction request", timeout: 30_000 });
    expect(t.models.control.requests.map((r) => r.tool)).toEqual([REPRODUCTION_TOOL]);
    const cancelledAt = Date.now();
    expect((await api().runs[":id"].cancel.$post({ param: { id: runId } })).status).toBe(200);
    const events = await readSse(await api().runs[":id"].events.$get({ param: { id: runId } }));
    expect(Date.now() - cancelledAt).toBeLessThan(2000);
    expect(events.at(-1)?.event).toBe("cancelled");
    expect(t.models.control.requests.map((r) => r.tool)).toEqual([REPRODUCTION_TOOL]);
    await expect.poll(() => t.models.control.abortedRequests, { timeout: 2000 }).toBe(1);
  });

  it("discards a reproduction test that passes on the base tree, and then offers none for the pull request", async () => {
    t.models.control.respondWith(isTrailing, answer(FIX));
    const passing = `import assert from "node:assert/strict";\nimport { test } from "node:test";\n\ntest("already fine", () => assert.equal(1, 1));\n`;
    t.models.control.reproduceWith(() => true, { filename: "test/already-fine.test.js", content: passing, reason: "" });
    const { runId, solutionId, meta } = await solve(23, 1);
    const repro = SolutionReproduction.parse(meta.reproduction);
    expect(repro).toMatchObject({ status: "discarded", passesWithSolution: null, failing: [] });
    expect(repro.note).toBe("Reproduction test discarded: passes on the base tree (test/already-fine.test.js)");
    expect((await validatingDetail(runId)).info).toContain(repro.note);
    expect((await stepDetail(runId, "generating")).info[0]).toBe(repro.note);
    // No reproduction kept and no test that failed before passes after: no regression found, unverified.
    expect(SolutionUnverified.parse(meta.unverified).reason).toMatch(/^No regression found, but no test that concerns/);
    const inc = await includeReproduction(solutionId);
    expect(inc.status).toBe(409);
    expect((await errorOf(inc)).code).toBe("solution.reproduction_unavailable");
  });

  it("marks the solution unverified when every candidate regresses; approving opens a draft pull request that says so", async () => {
    // The repository's owner solves it, so the pull request opens on it.
    const hubot = await t.stack.signIn("hubot", { scopes: ["public_repo"] });
    as = { headers: { ...hubot.headers, "content-type": "application/json" }, userId: hubot.user._id };
    t.models.control.respondPerCandidate(isTrailing, [answer(BREAKING), answer(BREAKING_2)]);
    const { issueId, runId, solutionId, meta } = await solve(33, 2);
    const reason = "Every candidate breaks tests that passed before.";
    expect(SolutionUnverified.parse(meta.unverified)).toEqual({ reason });
    expect((await validatingDetail(runId)).warnings).toContain(`Unverified: ${reason}`);
    const { issue } = await (await api().issues[":id"].$get({ param: { id: issueId } })).json();
    expect(issue.awaitingReview).toEqual({ solutionId, unverified: reason });
    // Drafts are off for this reviewer; an unverified solution is a draft all the same.
    expect((await api().settings["pull-requests"].$put({ json: { draftPullRequests: false } })).status).toBe(200);
    try {
      const res = await approveVia(api(), solutionId);
      expect(res.status, await res.clone().text()).toBe(200);
      const pull = t.stack.github.control.listPulls("hubot", "markdown-lint").at(-1);
      expect(pull?.draft).toBe(true);
      expect(pull?.body).toContain(`> **Unverified:** ${reason}`);
    } finally {
      as = null;
    }
  });

  it("with unverified solutions not presented, ends such a run failed with no solution and its quota unit back", async () => {
    // Bodies the route must refuse: sent raw, as the typed client would not build them.
    for (const bad of [{}, { presentUnverified: "no" }, { presentUnverified: false, extra: 1 }]) {
      const body = JSON.stringify(bad);
      expect(
        (await t.stack.app.request("/api/settings/candidates", { method: "PUT", headers: headers(), body })).status,
      ).toBe(400);
    }
    const put = await api().settings.candidates.$put({ json: { presentUnverified: false } });
    expect(await put.json()).toMatchObject({ presentUnverified: false, presentUnverifiedDefault: true });
    try {
      t.models.control.respondPerCandidate(isTrailing, [answer(BREAKING), answer(BREAKING_2)]);
      const { runId, end } = await run(43, 2);
      expect(end.event).toBe("failed");
      expect(end.data).toMatchObject({
        error: {
          code: "solution.unverified",
          message: expect.stringContaining("No solution presented: Every candidate"),
        },
      });
      const row = await t.stack.db
        .selectFrom("solve_runs")
        .select(["status", "solution_id", "quota_state"])
        .where("id", "=", runId)
        .executeTakeFirstOrThrow();
      // As any failed run: the quota unit is given back, the model spend stays in the ledger.
      expect(row).toEqual({ status: "failed", solution_id: null, quota_state: "released" });
      const spent = await t.stack.db
        .selectFrom("model_requests")
        .select("purpose")
        .where("run_id", "=", runId)
        .execute();
      expect(spent.length).toBeGreaterThan(0);
    } finally {
      await api().settings.candidates.$put({ json: { presentUnverified: true } });
    }
  });
});
