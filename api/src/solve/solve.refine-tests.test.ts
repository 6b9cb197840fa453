import { beforeAll, describe, expect, it } from "vitest";
import { insertIssue } from "@fixloop/testkit";
import { SolutionTests } from "@fixloop/contract";
import { readSse, type SseEvent } from "../../test/sse.testkit";
import { solveKit } from "../../test/solve.testkit";

// The model stand-in answers as scripted for the seeded issues: no respondWith here.
const t = solveKit({ workers: ["solve", "sync"], logLevel: "warn" });

beforeAll(async () => {
  await t.api.github.repositories.$get({ query: {} });
});

async function view(solutionId: string) {
  const res = await t.api.validations[":id"].$get({ param: { id: solutionId } });
  const { solution } = await res.json();
  return { solution, tests: SolutionTests.parse(solution.metadata.tests) };
}

async function finished(runId: string): Promise<string> {
  const end = (await readSse(await t.events(runId))).at(-1) as SseEvent;
  expect(end.event, JSON.stringify(end.data)).toBe("completed");
  return (end.data as { solutionId: string }).solutionId;
}

/** Seeded issues as they are on the GitHub stand-in; the model stand-in knows their fixes by title. */
const ISSUES = {
  lineLength: {
    repo: "hubot/markdown-lint",
    number: 4,
    title: "line-length flags lines that are exactly at the limit",
    body: "With the default limit of 80, a line of exactly 80 characters is reported as too long. See the comparison in `src/rules/line-length.js`.",
  },
  kelvin: {
    repo: "octocat/weather-cli",
    number: 2,
    title: "Kelvin readings are converted to absurd Celsius values",
    body: "A reading of 293.15 K should be 20 °C. The conversion is `kelvin_to_celsius()` in `weather/units.py`.",
  },
  due: {
    repo: "octocat/todo-api",
    number: 5,
    title: "Todos due today are already marked overdue",
    body: "A todo is reported overdue all day on its due day. The check is `isOverdue()` in `src/due.ts`.",
  },
};

/** Solves a seeded issue, then refines its solution with `feedback`. */
async function solveThenRefine(seeded: (typeof ISSUES)[keyof typeof ISSUES], feedback: string) {
  const issue = await insertIssue(t.stack.db, t.userId, seeded);
  const { runId } = await (await t.generate({ issueId: issue.id })).json();
  const solutionId = await finished(runId);
  const solved = await view(solutionId);
  const res = await t.api.validations[":id"].refine.$post({ param: { id: solutionId }, json: { feedback } });
  expect(res.status).toBe(202);
  const refine = await res.json();
  expect(await finished(refine.runId)).toBe(solutionId);
  return { solved, refined: await view(solutionId) };
}

const total = (c: { passed: number; failed: number; errored: number } | null) =>
  c ? c.passed + c.failed + c.errored : 0;

describe('refining with "add a test" (model stand-in, real bubblewrap)', () => {
  it("markdown-lint (ESM): one more test in the file that tests the rule; it runs and passes with the kept repair, whose explanation stays", async () => {
    const { solved, refined } = await solveThenRefine(ISSUES.lineLength, "Please add a test for this.");
    // The first attempt broke a test; the repair is kept, and so is its explanation.
    expect(solved.tests.kept).toBe("repair");
    expect(solved.solution.proposedSolution).toBe("Compare with > so the limit itself is allowed.");
    expect(refined.solution.proposedSolution).toMatch(/^Compare with > so the limit itself is allowed\./);
    expect(refined.solution.proposedSolution).not.toContain("one character to spare");
    const test = refined.solution.filesChanged.find((f) => f.filename === "test/line-length.test.js");
    expect(test?.action).toBe("modify");
    expect(refined.tests.status).toBe("passed");
    expect(refined.tests.attempts.map((a) => a.label)).toEqual(["first"]);
    expect(refined.tests.patched).toMatchObject({ failed: 0, errored: 0 });
    expect(refined.tests.patched?.passed).toBe((solved.tests.patched?.passed ?? 0) + 1);
    // It ran on the base tree first and passes there too: it cannot fail before the fix, so it proves nothing.
    expect(refined.tests.fixed).not.toContain("regression: line-length flags lines that are exactly at the limit");
    expect(refined.tests.added).toEqual(["regression: line-length flags lines that are exactly at the limit"]);
    expect(total(refined.tests.base)).toBe(total(solved.tests.base) + 1);
  });

  it("todo-api (TypeScript run by a hook, tests in test/): a new test file in test/ that the test script runs", async () => {
    const { solved, refined } = await solveThenRefine(ISSUES.due, "Also add a test for a todo due later today.");
    const created = refined.solution.filesChanged.filter((f) => f.action === "create");
    expect(created.map((f) => f.filename)).toEqual(["test/due.test.js"]);
    expect(created[0]?.content).toContain('from "../src/due.js"');
    // The pagination test fails before and after (issue 3, not this one); nothing else fails.
    expect(refined.tests.regressions).toEqual([]);
    expect(refined.tests.patched).toMatchObject({ failed: solved.tests.patched?.failed, errored: 0 });
    expect(refined.tests.patched?.passed).toBe((solved.tests.patched?.passed ?? 0) + 1);
    // It ran on the base tree first and passes there too: it cannot fail before the fix, so it proves nothing.
    expect(refined.tests.fixed).not.toContain("regression: Todos due today are already marked overdue");
    expect(refined.tests.added).toEqual(["regression: Todos due today are already marked overdue"]);
    expect(total(refined.tests.base)).toBe(total(solved.tests.base) + 1);
  });

  it("weather-cli (Python, unittest discover -s tests): a new test module in tests/ that the suite runs", async () => {
    const { solved, refined } = await solveThenRefine(ISSUES.kelvin, "Please add a test.");
    const created = refined.solution.filesChanged.filter((f) => f.action === "create");
    expect(created.map((f) => f.filename)).toEqual([expect.stringMatching(/^tests\/test_units(_regression)?\.py$/)]);
    expect(refined.tests.regressions).toEqual([]);
    expect(refined.tests.patched).toMatchObject({ failed: solved.tests.patched?.failed, errored: 0 });
    expect(refined.tests.patched?.passed).toBe((solved.tests.patched?.passed ?? 0) + 1);
  });
});
