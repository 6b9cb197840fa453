import { beforeAll, describe, expect, it } from "vitest";
import { gitShow, seedSolution } from "@fixloop/testkit";
import { openPullRequest } from "@fixloop/worker";
import { approve, prStack, storedAsOnGithub } from "../../test/pull-requests.fixtures";

let t: Awaited<ReturnType<typeof prStack>>;
let headers: Record<string, string>;
let readme: string;
beforeAll(async () => {
  t = await prStack();
  await storedAsOnGithub(t, "octocat", "todo-api");
  // Private repositories need the `repo` scope; octocat's account is on GitHub Free (no drafts there).
  headers = (await t.stack.signIn("octocat", { scopes: ["repo"] })).headers;
  readme = gitShow(t.control.gitDir("octocat", "secret-notes"), "main", "README.md");
});

const NOTICE = "**Not ready to merge: treat this pull request as a draft.**";
const REASON = "No test reproduced the misspelling.";

async function seedSecretNotes(issueNumber: number, title: string, unverified: boolean) {
  return seedSolution(t.stack.db, {
    userId: t.octocat.user._id,
    repoFullName: "octocat/secret-notes",
    issueNumber,
    title,
    files: [
      {
        filename: "README.md",
        action: "modify",
        originalContent: readme,
        content: readme.replace("we recieve feedback", "we receive feedback"),
      },
    ],
    metadata: unverified ? { unverified: { reason: REASON } } : {},
  });
}

const pullPosts = () => t.control.requestLog.filter((r) => r.method === "POST" && r.path.endsWith("/pulls"));

describe("a draft pull request on a private repository without drafts (GitHub Free and Pro)", () => {
  it("opens a regular pull request that says it is not ready to merge, and records that it is not a draft", async () => {
    const { solutionId } = await seedSecretNotes(1, "Typo in README", true);
    t.control.clearRequestLog();
    const res = await approve(t.stack, solutionId, headers);
    expect(res.status).toBe(200);
    // One draft refused with GitHub's 422, then one regular pull request: nothing else is retried.
    expect(pullPosts().map((r) => r.status)).toEqual([422, 201]);

    const pulls = t.control.listPulls("octocat", "secret-notes");
    expect(pulls).toHaveLength(1);
    const pr = pulls[0]!;
    expect(pr).toMatchObject({ state: "open", draft: false });
    expect(pr.body?.split("\n")[0]).toBe("> [!WARNING]");
    expect(pr.body?.split("\n")[1]).toContain(NOTICE);
    // The unverified statement no longer claims a draft.
    expect(pr.body).toContain(`> **Unverified:** ${REASON}`);
    expect(pr.body).toContain("do not merge it before it is verified");
    expect(pr.body).not.toContain("opened this pull request as a draft");
    expect(pr.body).toContain("Fixes #1");

    const { pullRequests } = await (await t.stack.client(headers).prs.$get()).json();
    expect(pullRequests.find((p) => p.repoFullName === "octocat/secret-notes")?.metadata).toMatchObject({
      draft: false,
      draftRefused: true,
    });
    const row = await t.stack.db
      .selectFrom("pull_requests")
      .select(["body", "metadata"])
      .where("solution_id", "=", solutionId)
      .executeTakeFirstOrThrow();
    expect(row.body).toBe(pr.body);

    // A run after a crash between the pull request and its record finds it and records the same.
    await t.stack.db.deleteFrom("pull_requests").where("solution_id", "=", solutionId).execute();
    t.control.clearRequestLog();
    const again = await openPullRequest(t.stack.ctx, { userId: t.octocat.user._id, solutionId });
    expect(again?.githubUrl).toBe(pr.htmlUrl);
    expect(pullPosts()).toEqual([]);
    const rerun = await t.stack.db
      .selectFrom("pull_requests")
      .select(["body", "metadata"])
      .where("solution_id", "=", solutionId)
      .executeTakeFirstOrThrow();
    expect(rerun).toEqual(row);
    expect(rerun.metadata).toMatchObject({ draft: false, draftRefused: true });
  });

  it("opens a draft where the plan has drafts, with no notice", async () => {
    t.control.setPlan("octocat", "team");
    try {
      const { solutionId } = await seedSecretNotes(2, "Another typo", false);
      t.control.clearRequestLog();
      const res = await approve(t.stack, solutionId, headers);
      expect(res.status).toBe(200);
      expect(pullPosts().map((r) => r.status)).toEqual([201]);
      const pr = t.control.listPulls("octocat", "secret-notes").find((p) => p.head.ref.startsWith("fixloop/issue-2-"));
      expect(pr).toMatchObject({ draft: true });
      expect(pr?.body).not.toContain(NOTICE);
      const row = await t.stack.db
        .selectFrom("pull_requests")
        .select("metadata")
        .where("solution_id", "=", solutionId)
        .executeTakeFirstOrThrow();
      expect(row.metadata).toEqual(expect.objectContaining({ draft: true }));
      expect(row.metadata).not.toHaveProperty("draftRefused");
    } finally {
      t.control.setPlan("octocat", "free");
    }
  });
});
