import { describe, expect, it } from "vitest";
import { createTestStack } from "../../test/stack";
import { seedSolution } from "@fixloop/testkit";

const stack = await createTestStack({ workers: ["fork"] });
const { app, db } = stack;

const post = (path: string, headers: Record<string, string>, body: unknown) =>
  app.request(path, {
    method: "POST",
    headers: { ...headers, "content-type": "application/json" },
    body: JSON.stringify(body),
  });
interface IssueView {
  _id: string;
  status: string;
  awaitingReview: { solutionId: string } | null;
  linkedPullRequests: Array<{ number: number; htmlUrl: string; login: string; repoFullName: string; draft: boolean }>;
}
const getIssue = async (headers: Record<string, string>, id: string) => {
  const res = await app.request(`/api/issues/${id}`, { headers });
  expect(res.status).toBe(200);
  return ((await res.json()) as { issue: IssueView }).issue;
};
const forkState = async (headers: Record<string, string>, owner: string, repo: string, issueNumber: number) => {
  const res = await post("/api/contributions/fetch-issue", headers, { owner, repo, issueNumber });
  expect(res.status).toBe(200);
  return ((await res.json()) as { fork: { state: string; fullName: string | null } }).fork;
};

describe("issue states the web app shows", () => {
  it("imports an issue with the open pull requests GitHub links to it, by number, author and address", async () => {
    const { headers } = await stack.signIn("octocat", { scopes: ["public_repo"] });
    const res = await post("/api/contributions/import-issue", headers, {
      owner: "opencommons",
      repo: "welcome-kit",
      issueNumber: 5,
      acknowledgeWarnings: true,
    });
    expect(res.status).toBe(200);
    const { issue } = (await res.json()) as { issue: { _id: string } };
    const view = await getIssue(headers, issue._id);
    expect(view.linkedPullRequests).toEqual([
      {
        number: 6,
        login: "hubot",
        repoFullName: "opencommons/welcome-kit",
        draft: false,
        htmlUrl: expect.stringMatching(/\/opencommons\/welcome-kit\/pull\/6$/),
      },
    ]);
    expect(view.awaitingReview).toBeNull();
  });

  it("says whether the fork the import needs exists already, or whether the repository is the user's own", async () => {
    const { headers } = await stack.signIn("octocat", { scopes: ["public_repo"] });
    expect(await forkState(headers, "opencommons", "disclose-lib", 1)).toEqual({ state: "required", fullName: null });
    // The import above forked welcome-kit into octocat's account.
    expect(await forkState(headers, "opencommons", "welcome-kit", 2)).toEqual({
      state: "exists",
      fullName: "octocat/welcome-kit",
    });
    expect(await forkState(headers, "octocat", "todo-api", 3)).toEqual({ state: "own", fullName: "octocat/todo-api" });
  });

  it("marks a solved issue whose solution is pending as awaiting review, and not once it is decided", async () => {
    const { headers, user } = await stack.signIn("hubot", { scopes: ["public_repo"] });
    const { solutionId, issueId } = await seedSolution(db, {
      userId: user._id,
      repoFullName: "hubot/markdown-lint",
      issueNumber: 41,
      files: [],
    });
    expect(await getIssue(headers, issueId)).toMatchObject({ status: "solved", awaitingReview: { solutionId } });
    const rejected = await post(`/api/validations/${solutionId}/validate`, headers, { status: "rejected" });
    expect(rejected.status).toBe(200);
    expect((await getIssue(headers, issueId)).awaitingReview).toBeNull();
  });
});
