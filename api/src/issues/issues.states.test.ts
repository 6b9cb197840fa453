import { describe, expect, it } from "vitest";
import { createTestStack } from "../../test/stack";
import { seedSolution } from "@fixloop/testkit";

const stack = await createTestStack({ workers: ["fork"] });
const { db } = stack;

const getIssue = async (headers: Record<string, string>, id: string) => {
  const res = await stack.client(headers).issues[":id"].$get({ param: { id } });
  expect(res.status).toBe(200);
  return (await res.json()).issue;
};
const forkState = async (headers: Record<string, string>, owner: string, repo: string, issueNumber: number) => {
  const res = await stack.client(headers).contributions["fetch-issue"].$post({ json: { owner, repo, issueNumber } });
  expect(res.status).toBe(200);
  return (await res.json()).fork;
};

describe("issue states the web app shows", () => {
  it("imports an issue with the open pull requests GitHub links to it, by number, author and address", async () => {
    const { headers } = await stack.signIn("octocat", { scopes: ["public_repo"] });
    const res = await stack.client(headers).contributions["import-issue"].$post({
      json: { owner: "opencommons", repo: "welcome-kit", issueNumber: 5, acknowledgeWarnings: true },
    });
    expect(res.status).toBe(200);
    const body = await res.json();
    if (!("issue" in body)) throw new Error(`the import was queued: ${JSON.stringify(body)}`);
    const { issue } = body;
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
    const rejected = await stack.client(headers).validations[":id"].validate.$post({
      param: { id: solutionId },
      json: { status: "rejected" },
    });
    expect(rejected.status).toBe(200);
    expect((await getIssue(headers, issueId)).awaitingReview).toBeNull();
  });
});
