import { describe, expect, it } from "vitest";
import { insertIssue } from "@fixloop/testkit";
import { SolutionTests, type TestsEvent, testsRerunKey, testsVerdict } from "@fixloop/contract";
import { readSse, type SseEvent } from "../../test/sse.testkit";
import { solveKit } from "../../test/solve.testkit";
import { pushFiles, TAB_TEST } from "../../test/tests-run.testkit";

// A manual edit makes the evidence stale; the tests run again on the edited files as a job, live.
const t = solveKit({ workers: ["solve", "syntax-check", "tests-rerun"] });

const FIXED = "const TRAILING = /[ \\t]+$/;\n";
const BROKEN = "const TRAILING = /\\t+$/;\n";
const FILE = "src/rules/trailing-spaces.js";
/** What a worker that stopped during a re-run leaves in the revision's stream: output, and no end. */
const HALF_RUN: TestsEvent = {
  type: "tests",
  phase: "patched",
  output: "half of a run whose worker stopped\n",
  counts: { passed: 5, failed: 1, errored: 0 },
  done: false,
  at: "2026-11-24T12:00:00.000Z",
};

const view = async (id: string) => (await t.api.validations[":id"].$get({ param: { id } })).json();
const testsOf = (v: { solution: { metadata: { tests?: unknown } } }) => SolutionTests.parse(v.solution.metadata.tests);

async function edit(id: string, from: string, to: string) {
  const v = await view(id);
  const file = v.solution.filesChanged.find((f) => f.filename === FILE);
  const res = await t.api.validations[":id"].modify.$post({
    param: { id },
    json: {
      modifications: [
        {
          filename: FILE,
          originalContent: file?.content ?? "",
          modifiedContent: (file?.content ?? "").replace(from, to),
        },
      ],
    },
  });
  expect(res.status).toBe(200);
  return testsOf(await res.json());
}

/** Follows the re-run of the solution's current revision to its end. */
async function follow(id: string): Promise<SseEvent[]> {
  const res = await t.api.validations[":id"].tests.events.$get({ param: { id } });
  expect(res.headers.get("content-type")).toContain("text/event-stream");
  return readSse(res, (e) => e.event !== "end");
}

describe("a manual edit re-runs the tests (real bubblewrap)", () => {
  it("marks the evidence stale, re-runs the tests on the edited files live and replaces it with fresh evidence", async () => {
    pushFiles(t.stack, "hubot", "markdown-lint", { "test/trailing-tabs.test.js": TAB_TEST }, "Add a failing test");
    t.models.control.respondWith((p) => p.includes("trailing-spaces"), {
      analysis: "TRAILING only matches spaces.",
      proposedSolution: "Match tabs too.",
      confidence: 80,
      files: [
        { filename: FILE, action: "modify" as const, edits: [{ search: "const TRAILING = / +$/;\n", replace: FIXED }] },
      ],
    });
    const issue = await insertIssue(t.stack.db, t.userId, {});
    const started = await (await t.generate({ issueId: issue.id })).json();
    const end = (await readSse(await t.events(started.runId))).at(-1) as SseEvent;
    expect(end.event).toBe("completed");
    const id = (end.data as { solutionId: string }).solutionId;
    expect(testsVerdict(testsOf(await view(id))).kind).toBe("passed");
    const solved = (await view(id)).solution.metadata;
    expect(solved.unverified).toBeNull();
    // The model stand-in's reproduction test for trailing tabs fails on the base tree: it is kept.
    expect(solved.reproduction).toMatchObject({ status: "kept", passesWithSolution: true });
    expect(solved.reproductionPasses).toBe(true);

    // An edit that breaks the fix: stale at once, then the re-run finds the regression.
    const stale = await edit(id, FIXED, BROKEN);
    // Until the tests run on the edited files, nothing says the reproduction test passes with them.
    expect((await view(id)).solution.metadata.reproductionPasses).toBe(false);
    expect(stale.stale?.by).toBe("edit");
    expect(stale.rerunPending).toEqual({ revision: 2 });
    expect(testsVerdict(stale).kind).toBe("stale");
    const live = await follow(id);
    const output = live
      .filter((e) => e.event === "tests")
      .map((e) => (e.data as { output: string }).output)
      .join("");
    expect(output).toContain("reports trailing spaces with their column");
    expect(live.at(-1)?.data).toEqual({ status: "failed" });
    const broken = testsOf(await view(id));
    expect(broken.stale).toBeUndefined();
    expect(broken.rerunPending).toBeUndefined();
    expect(broken.rerun?.revision).toBe(2);
    expect(broken.regressions).toContain("reports trailing spaces with their column");
    expect(testsVerdict(broken).kind).toBe("regressions");
    // The verdict follows the evidence: the edited files break a test, so the solution is unverified now.
    expect((await view(id)).solution.metadata.unverified?.reason).toMatch(
      /^The change breaks tests that passed before \(reports trailing spaces with their column[,)]/,
    );

    // Editing it back: the re-run proves the final code, so the PR may say the tests passed. Its
    // stream starts with what a worker that stopped halfway through this revision's job left.
    const { redis, queues } = t.stack.deps;
    await redis.xadd(testsRerunKey(queues.prefix, id, 3), "*", "data", JSON.stringify(HALF_RUN));
    await edit(id, BROKEN, FIXED);
    const back = await follow(id);
    expect(back.at(-1)?.data).toEqual({ status: "passed" });
    const said = back.filter((e) => e.event === "tests").map((e) => e.data as TestsEvent);
    expect(said[0]).toEqual(HALF_RUN);
    // The reader is told the half run is void, and the counts start over, before the run's own output.
    expect(said[1]?.output).toMatch(/stopped before they ended; they start again from the beginning/);
    expect(said[1]?.counts).toEqual({ passed: 0, failed: 0, errored: 0 });
    expect(said.slice(2).some((e) => e.output.includes("reports trailing tabs"))).toBe(true);
    const fresh = testsOf(await view(id));
    expect(fresh.rerun?.revision).toBe(3);
    expect(fresh.fixed).toEqual(["reports trailing tabs"]);
    expect(testsVerdict(fresh).kind).toBe("passed");
    // The re-run ran the reproduction test on the edited files too: it passes, so the solution is verified again.
    const rerun = (await view(id)).solution.metadata;
    expect(rerun.unverified).toBeNull();
    expect(rerun.reproduction).toMatchObject({ status: "kept", passesWithSolution: true });
    expect(rerun.reproductionPasses).toBe(true);

    // A refinement is a new run: its validating step runs the tests, and its evidence is fresh too.
    await edit(id, "\n", "\n// checked by hand\n");
    const refine = await t.api.validations[":id"].refine.$post({
      param: { id },
      json: { feedback: "Keep the pattern readable" },
    });
    expect(refine.status).toBe(202);
    const { runId } = await refine.json();
    expect((await readSse(await t.events(runId))).at(-1)?.event).toBe("completed");
    const refined = testsOf(await view(id));
    expect(refined.stale).toBeUndefined();
    expect(refined.rerunPending).toBeUndefined();
    expect(refined.rerun).toBeUndefined(); // the refine run's own evidence, not a re-run's
    expect(refined.attempts.length).toBeGreaterThan(0);
    expect(refined.patched).not.toBeNull();
  }, 90_000);
});
