import { beforeAll, describe, expect, it } from "vitest";
import { gitShow, seedSolution } from "@fixloop/testkit";
import { approve, prStack, storedAsOnGithub } from "../../test/pull-requests.fixtures";
import { processPullRequest } from "@fixloop/worker";

let t: Awaited<ReturnType<typeof prStack>>;
beforeAll(async () => {
  t = await prStack();
  await storedAsOnGithub(t, "octocat", "todo-api");
});

const status = async (id: string) =>
  (await t.stack.db.selectFrom("solutions").select("status").where("id", "=", id).executeTakeFirstOrThrow()).status;

async function twoSolutions(issueNumber: number, title: string) {
  const userId = t.octocat.user._id;
  const a = await seedSolution(t.stack.db, {
    userId,
    repoFullName: "octocat/todo-api",
    issueNumber,
    title,
    files: [{ filename: "docs/fix-a.md", action: "create", originalContent: "", content: "fix A\n" }],
  });
  const b = await t.stack.db
    .insertInto("solutions")
    .values({
      user_id: userId,
      issue_id: a.issueId,
      status: "pending",
      analysis: "Another take.",
      proposed_solution: "Fix B.",
      ai_model: "llama-3.3-70b-versatile",
      confidence: 70,
      files_changed: JSON.stringify([
        { filename: "docs/fix-b.md", action: "create", originalContent: "", content: "fix B\n" },
      ]),
      metadata: JSON.stringify({}),
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  return { issueId: a.issueId, a: a.solutionId, b: b.id };
}

describe("two solutions of one issue approved at once", () => {
  it("opens one pull request whose branch holds the approved solution's files; the other stays pending with 409", async () => {
    const { issueId, a, b } = await twoSolutions(61, "Two answers race");
    const answer = async (id: string) => {
      const r = await approve(t.stack, id, t.octocat.headers);
      return { id, status: r.status, body: (await r.json()) as { error?: { code: string; message: string } } };
    };
    const answers = await Promise.all([answer(a), answer(b), answer(a), answer(b)]);

    const prs = await t.stack.db.selectFrom("pull_requests").selectAll().where("issue_id", "=", issueId).execute();
    expect(prs).toHaveLength(1);
    const pr = prs[0]!;
    const winner = pr.solution_id;
    const loser = winner === a ? b : a;
    expect(answers.filter((x) => x.id === winner).map((x) => x.status)).toEqual([200, 200]);
    for (const x of answers.filter((x) => x.id === loser)) {
      expect(x.status).toBe(409);
      expect(x.body.error?.code).toBe("solution.issue_taken");
    }
    expect([await status(winner), await status(loser)]).toEqual(["pr_created", "pending"]);

    // The branch holds exactly the recorded solution's files, and one pull request points at it.
    const pulls = t.control.listPulls("octocat", "todo-api").filter((p) => p.head.ref === pr.branch_name);
    expect(pulls).toHaveLength(1);
    const files = await t.stack.db
      .selectFrom("solutions")
      .select("files_changed")
      .where("id", "=", winner)
      .executeTakeFirstOrThrow();
    const recorded = files.files_changed as { filename: string; content: string }[];
    for (const f of recorded) expect(gitShow(t.upstreamDir, pr.branch_name, f.filename)).toBe(f.content);
    const other = winner === a ? "docs/fix-b.md" : "docs/fix-a.md";
    expect(() => gitShow(t.upstreamDir, pr.branch_name, other)).toThrow();
  });

  it("never writes the branch for a solution while another one holds the issue", async () => {
    const { a, b } = await twoSolutions(62, "Held issue");
    await t.stack.db.updateTable("solutions").set({ status: "approved" }).where("id", "in", [a, b]).execute();
    const job = { data: { userId: t.octocat.user._id, solutionId: b }, attemptsMade: 0, opts: {} };
    const err = await processPullRequest(job as never, t.stack.ctx, new AbortController().signal).catch(
      (e: Error) => e,
    );
    expect(err).toMatchObject({ code: "pull_request.conflict" });
    expect(t.control.listPulls("octocat", "todo-api").filter((p) => p.head.ref.includes("issue-62"))).toEqual([]);
    // Refused, it is not left "approved" with no pull request: it goes back to pending.
    expect(await status(b)).toBe("pending");
    expect(await status(a)).toBe("approved");
  });
});
