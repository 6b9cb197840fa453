import { Octokit } from "@octokit/rest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startModelSandbox, type ModelSandbox } from "@fixloop/testkit/sandbox";
import { createTestStack, type TestStack } from "../../test/stack";
import { handleLabeledIssue } from "./label-trigger.handler";

let models: ModelSandbox;
let stack: TestStack;

beforeAll(async () => {
  models = await startModelSandbox();
  // Sync workers only: runs stay queued, which is all the trigger's admission needs.
  stack = await createTestStack({
    env: models.env,
    workers: ["sync"],
    logLevel: "debug",
    envOf: (control) => {
      const app = control.defaultApp();
      return { GITHUB_APP_ID: String(app.id), GITHUB_APP_SLUG: app.slug, GITHUB_APP_PRIVATE_KEY: app.pem };
    },
  });
}, 60_000);
afterAll(async () => {
  await models?.stop();
});

/** Signs in with repository access and lists the repositories (the sync that stores them). */
async function signedIn(login: string) {
  const me = await stack.signIn(login, { scopes: ["public_repo"] });
  const headers = { ...me.headers, "content-type": "application/json" };
  expect((await stack.app.request("/api/github/repositories", { headers })).status).toBe(200);
  return { id: me.user._id, headers };
}

/** `login` installs the App on their account, on `repos` only, and comes back through the setup redirect. */
async function install(login: string, headers: Record<string, string>, repos: string[]) {
  const id = stack.github.control.install(login, login, repos);
  const setup = await stack.app.request(`/api/github/app/setup?installation_id=${id}&setup_action=install`, {
    headers,
  });
  expect(setup.headers.get("location")).toMatch(/installed=true$/);
}

async function enabledLabelledIssue(me: { headers: Record<string, string> }, owner: string, repo: string) {
  const set = await stack.app.request(`/api/github/repositories/${owner}/${repo}/label-trigger`, {
    method: "PUT",
    headers: me.headers,
    body: JSON.stringify({ enabled: true, label: "fixloop" }),
  });
  expect(set.status).toBe(200);
  const [n = 0] = stack.github.control.addIssues(owner, repo, [{ title: "Crash on empty input" }]);
  const gh = new Octokit({ baseUrl: stack.github.url, auth: stack.github.control.issueToken(owner, ["repo"]) });
  await gh.rest.issues.addLabels({ owner, repo, issue_number: n, labels: ["fixloop"] });
  const repositoryId = (await gh.rest.repos.get({ owner, repo })).data.id;
  const outcome = await handleLabeledIssue(stack.deps, {
    repositoryId,
    repoFullName: `${owner}/${repo}`,
    issueNumber: n,
    label: "fixloop",
    senderLogin: owner,
  });
  expect(outcome.status).toBe("started");
  const comments = (await gh.rest.issues.listComments({ owner, repo, issue_number: n })).data;
  return { n, comments };
}

const commentPosts = (owner: string, repo: string, n: number) =>
  stack.github.control.requestLog.filter(
    (r) => r.method === "POST" && r.path.endsWith(`/repos/${owner}/${repo}/issues/${n}/comments`),
  );

describe("the label trigger's comment on a repository the App is installed on", () => {
  it("is written by the App's bot with a token minted for it, narrowed to the repository, that another repository refuses", async () => {
    const me = await signedIn("octocat");
    // Both repositories: the comment's token is narrowed to one of them.
    await install("octocat", me.headers, ["todo-api", "url-shortener"]);
    stack.github.control.clearRequestLog();
    const { n, comments } = await enabledLabelledIssue(me, "octocat", "todo-api");
    expect(comments.map((c) => c.user?.login)).toEqual(["fixloop-sandbox[bot]"]);
    expect(comments[0]?.body).toContain("Follow the run live");
    const [post] = commentPosts("octocat", "todo-api", n);
    const token = post?.token ?? "";
    expect(token).toMatch(/^ghs_/);
    // The token was minted for this repository only, with issues: write and metadata: read.
    const minted = stack.github.control.requestLog.filter((r) => r.path.endsWith("/access_tokens"));
    expect(minted.length).toBeGreaterThan(0);
    const attacker = new Octokit({ baseUrl: stack.github.url, auth: token });
    const elsewhere = await attacker.rest.issues
      .createComment({ owner: "octocat", repo: "url-shortener", issue_number: 1, body: "wrong repository" })
      .then(
        () => 201,
        (e: { status: number }) => e.status,
      );
    expect(elsewhere).toBe(403);
    // Nor may it push code to its own repository: the comment's token carries no contents: write.
    const push = await attacker.rest.git
      .createRef({ owner: "octocat", repo: "todo-api", ref: "refs/heads/not-allowed", sha: "0".repeat(40) })
      .then(
        () => 201,
        (e: { status: number }) => e.status,
      );
    expect(push).toBe(403);
    expect(stack.logs.some((l) => /ghs_[A-Za-z0-9_-]{10}/.test(l))).toBe(false);
  });

  it("stays the user's own on a repository no installation covers", async () => {
    const me = await signedIn("hubot");
    stack.github.control.clearRequestLog();
    const { n, comments } = await enabledLabelledIssue(me, "hubot", "markdown-lint");
    expect(comments.map((c) => c.user?.login)).toEqual(["hubot"]);
    expect(commentPosts("hubot", "markdown-lint", n).map((r) => r.token?.startsWith("ghs_"))).toEqual([false]);
  });
});
