import type { AddressInfo } from "node:net";
import { createAdaptorServer } from "@hono/node-server";
import { githubRepositories } from "@fixloop/db";
import { createGithubClient } from "@fixloop/runtime";
import { insertIssue } from "@fixloop/testkit";
import { startModelSandbox, type ModelSandbox } from "@fixloop/testkit/sandbox";
import { afterAll } from "vitest";
import { readSse } from "./sse.testkit";
import { approve } from "./pull-requests.fixtures";
import { createTestStack } from "./stack";

const SECRET = "address-review-secret";
export const REPO = { owner: "octocat", repo: "todo-api" };

/**
 * The whole loop for addressing a review: the app on real HTTP receiving the GitHub stand-in's
 * signed webhooks, workers for solve, pull-request, sync and syntax checks, the model stand-in,
 * and octocat signed in with repository access. `openPull` solves an issue and approves it, so
 * Fixloop opens its pull request; `api` calls the app as octocat.
 */
export async function addressReviewStack() {
  const models: ModelSandbox = await startModelSandbox();
  afterAll(() => models.stop());
  const stack = await createTestStack({
    workers: ["solve", "pull-request", "sync", "syntax-check"],
    logLevel: "warn",
    env: { ...models.env, GITHUB_WEBHOOK_SECRET: SECRET, JOB_WAIT_SECONDS: "60" },
  });
  const server = createAdaptorServer({ fetch: stack.app.fetch });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
  const control = stack.github.control;
  control.setWebhook({
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/github/webhook`,
    secret: SECRET,
  });
  const octocat = await stack.signIn("octocat", { scopes: ["public_repo"] });
  const gh = (login: string) =>
    createGithubClient({ baseUrl: stack.github.url, token: control.issueToken(login, ["public_repo"]) });
  // octocat/todo-api under the stand-in's id, as a sync stores it: the issues `openPull` seeds name it by that id.
  const { data: upstream } = await gh("octocat").rest.repos.get(REPO);
  await githubRepositories.upsert(stack.db, {
    github_id: upstream.id,
    full_name: upstream.full_name,
    html_url: upstream.html_url,
  });

  async function api(path: string, init: { method?: string; body?: unknown } = {}) {
    const res = await stack.app.request(`/api${path}`, {
      method: init.method ?? "GET",
      headers: { ...octocat.headers, "content-type": "application/json" },
      body: init.body === undefined ? undefined : JSON.stringify(init.body),
    });
    const text = await res.text();
    return { status: res.status, body: (text ? JSON.parse(text) : null) as Record<string, any> };
  }

  /** Solves a new issue of octocat/todo-api and approves the solution: Fixloop's pull request. */
  async function openPull(number: number, title: string) {
    const issue = await insertIssue(stack.db, octocat.user._id, { repo: "octocat/todo-api", number, title });
    const solved = await api("/ai/generate-solution?wait=true", { method: "POST", body: { issueId: issue.id } });
    if (solved.status !== 200) throw new Error(`solve answered ${solved.status}: ${JSON.stringify(solved.body)}`);
    const solutionId = solved.body.solution._id as string;
    const approved = await approve(stack, solutionId, octocat.headers);
    if (approved.status !== 200) throw new Error(`approval answered ${approved.status}: ${await approved.text()}`);
    const prs = (await api("/prs")).body.pullRequests as {
      _id: string;
      prNumber: number;
      branchName: string;
      solutionId: string;
    }[];
    const pr = prs.find((p) => p.solutionId === solutionId);
    if (!pr) throw new Error("no pull request recorded");
    const file = (solved.body.solution.filesChanged as { filename: string }[])[0]?.filename ?? "";
    return { id: pr._id, number: pr.prNumber, branch: pr.branchName, solutionId, file };
  }

  /** A reviewer's comment on a line of the pull request, delivered to the app as a signed webhook. */
  async function comment(pr: { number: number; branch: string }, path: string, line: number, body: string) {
    const head = await gh("hubot").rest.git.getRef({ ...REPO, ref: `heads/${pr.branch}` });
    const c = await gh("hubot").rest.pulls.createReviewComment({
      ...REPO,
      pull_number: pr.number,
      body,
      path,
      line,
      commit_id: head.data.object.sha,
    });
    await control.webhookDeliveries();
    return String(c.data.id);
  }

  /** Waits for a run to end; its last event. */
  async function finished(runId: string) {
    const events = await readSse(await stack.app.request(`/api/runs/${runId}/events`, { headers: octocat.headers }));
    return events.at(-1);
  }

  const headOf = async (branch: string) =>
    (await gh("octocat").rest.git.getRef({ ...REPO, ref: `heads/${branch}` })).data.object.sha;

  return { stack, models, control, octocat, gh, api, openPull, comment, finished, headOf };
}
