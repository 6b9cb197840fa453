import { describe, expect, it } from "vitest";
import { insertIssue } from "@fixloop/testkit";
import { solutionOf, solveKit } from "../../test/solve.testkit";

// One solve per issue at a time: a second solution while one awaits review is asked for explicitly.
const t = solveKit();

const runsOf = (issueId: string) =>
  t.stack.db.selectFrom("solve_runs").select("id").where("issue_id", "=", issueId).execute();
const used = async () =>
  (await t.stack.db.selectFrom("usage_counters").select("used").where("user_id", "=", t.userId).execute()).map(
    (r) => r.used,
  );
const pending = async () => (await (await t.api.validations.pending.$get()).json()).solutions;

async function solved(issueId: string, extra: { solveAgain?: boolean } = {}) {
  const res = await t.generate({ issueId, ...extra }, { wait: true });
  expect(res.status, await res.clone().text()).toBe(200);
  return (await solutionOf(res))._id;
}

describe("solving an issue whose solution awaits review", () => {
  it("refuses a second solve with 409 solve.awaiting_review, starting and charging nothing, until asked with solveAgain", async () => {
    const issue = await insertIssue(t.stack.db, t.userId, { number: 3 });
    const first = await solved(issue.id);
    const runsBefore = await runsOf(issue.id);
    const usedBefore = await used();

    const refused = await t.generate({ issueId: issue.id });
    expect(refused.status).toBe(409);
    expect(await refused.json()).toEqual({
      error: {
        code: "solve.awaiting_review",
        message: `A solution for this issue awaits your review (solution ${first}): open it, or solve again with solveAgain: true`,
      },
    });
    expect((await t.generate({ issueId: issue.id, solveAgain: false })).status).toBe(409);
    expect((await t.generate({ issueId: issue.id, solveAgain: "yes" })).status).toBe(400);
    expect(await runsOf(issue.id)).toEqual(runsBefore);
    expect(await used()).toEqual(usedBefore);

    const second = await solved(issue.id, { solveAgain: true });
    expect(second).not.toBe(first);
    expect(await runsOf(issue.id)).toHaveLength(runsBefore.length + 1);

    // Both wait for review, told apart by what the list says of each.
    const listed = (await pending()).filter((s) => s.issueId._id === issue.id);
    expect(listed.map((s) => s._id)).toEqual([second, first]);
    for (const s of listed) {
      expect(s.issueId).toMatchObject({ issueNumber: 3, repoFullName: "hubot/markdown-lint" });
      expect(s.revision).toBeGreaterThanOrEqual(1);
    }
    expect(Date.parse(listed[0]?.createdAt ?? "")).toBeGreaterThan(Date.parse(listed[1]?.createdAt ?? ""));
  });

  it("solves again without asking once the waiting solution is decided", async () => {
    const issue = await insertIssue(t.stack.db, t.userId, { number: 6 });
    const first = await solved(issue.id);
    expect((await t.generate({ issueId: issue.id })).status).toBe(409);
    const rejected = await t.api.validations[":id"].validate.$post({
      param: { id: first },
      json: { status: "rejected", comments: "Not this way" },
    });
    expect(rejected.status, await rejected.clone().text()).toBe(200);
    const again = await t.generate({ issueId: issue.id });
    expect(again.status, await again.clone().text()).toBe(202);
  });
});
