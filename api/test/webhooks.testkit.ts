import type { AddressInfo } from "node:net";
import { createAdaptorServer } from "@hono/node-server";
import type { QueueName } from "@fixloop/contract";
import { githubRepositories, issues, pullRequests, repositories } from "@fixloop/db";
import { seedRepository } from "@fixloop/testkit";
import { createGithubClient } from "@fixloop/runtime";
import { WebhookSender, type GithubSandboxControl } from "@fixloop/testkit/sandbox";
import { upsertRepository, type GithubRepo } from "@fixloop/worker";
import { afterAll } from "vitest";
import { createTestStack } from "./stack";

export const WEBHOOK_SECRET = "webhook-test-secret";
const REPO = { owner: "octocat", repo: "todo-api" };

/** A repository as a delivery names it: its GitHub id and where it lives now. */
export interface DeliveredRepository {
  id: number;
  name: string;
  full_name: string;
  owner: { login: string };
}

/** `r` (GitHub's repository object) as a delivery names it. */
export const deliveredRepository = (r: DeliveredRepository): DeliveredRepository => ({
  id: r.id,
  name: r.name,
  full_name: r.full_name,
  owner: { login: r.owner.login },
});

/** A push delivery's body: one commit by monalisa, `sha`, on `branch` of `repository` (see `WebhookStack.repository`). */
export const pushEvent = (repository: DeliveredRepository, branch: string, sha: string) => ({
  ref: `refs/heads/${branch}`,
  repository,
  sender: { login: "monalisa" },
  commits: [
    {
      id: sha,
      message: "Handle the empty page\n\nbody",
      timestamp: "2026-11-24T06:00:00Z",
      author: { name: "Mona", username: "monalisa" },
    },
  ],
});

/**
 * A stack whose app listens on real HTTP and whose GitHub stand-in delivers signed webhooks to
 * it; octocat signed in. `openFixloopPull` opens a pull request on the stand-in and records it as
 * Fixloop's (as the pull-request step does), so webhooks about it apply.
 */
export async function webhookStack(
  o: {
    webhook?: boolean;
    workers?: QueueName[] | false;
    env?: Record<string, string>;
    /** Settings read off the stand-in once it runs (its GitHub App, say). */
    appEnv?: (control: GithubSandboxControl) => Record<string, string>;
  } = {},
) {
  const stack = await createTestStack({
    envOf: o.appEnv,
    workers: o.workers ?? false,
    // A provider key so a label-triggered run has a model to start with (no worker runs it here).
    env: {
      GITHUB_WEBHOOK_SECRET: WEBHOOK_SECRET,
      JOB_WAIT_SECONDS: "25",
      GROQ_API_KEY: "gsk_webhooks_test_key",
      ...o.env,
    },
  });
  const server = createAdaptorServer({ fetch: stack.app.fetch });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
  const { port } = server.address() as AddressInfo;
  const control = stack.github.control;
  /** Where the stand-in delivers webhooks when they are on (`control.setWebhook(hook)`). */
  const hook = { url: `http://127.0.0.1:${port}/api/github/webhook`, secret: WEBHOOK_SECRET };
  if (o.webhook !== false) control.setWebhook(hook);
  const octocat = await stack.signIn("octocat", { scopes: ["public_repo"] });
  const gh = (login: string) =>
    createGithubClient({ baseUrl: stack.github.url, token: control.issueToken(login, ["public_repo"]) });
  let branches = 0;
  /** octocat/todo-api on the stand-in, as its deliveries name it (the rename tests move it: read it first). */
  const repository = deliveredRepository((await gh("octocat").rest.repos.get(REPO)).data);

  /** `repo` (octocat's todo-api unless told) must have a `main` branch. */
  async function openFixloopPull(repo: { owner: string; repo: string } = REPO) {
    const g = gh(repo.owner);
    const fullName = `${repo.owner}/${repo.repo}`;
    const branch = `fixloop/hook-${++branches}`;
    const main = await g.rest.git.getRef({ ...repo, ref: "heads/main" });
    const parent = await g.rest.git.getCommit({ ...repo, commit_sha: main.data.object.sha });
    const tree = await g.rest.git.createTree({
      ...repo,
      base_tree: parent.data.tree.sha,
      tree: [{ path: "src/paginate.ts", mode: "100644", type: "blob", content: `// fix ${branch}\n` }],
    });
    const commit = await g.rest.git.createCommit({
      ...repo,
      message: "Fix",
      tree: tree.data.sha,
      parents: [parent.data.sha],
    });
    await g.rest.git.createRef({ ...repo, ref: `refs/heads/${branch}`, sha: commit.data.sha });
    const pr = await g.rest.pulls.create({ ...repo, title: "Fix pagination", head: branch, base: "main" });
    const { data: github } = await g.rest.repos.get({ ...repo });
    const stored = { github_id: github.id, full_name: github.full_name, html_url: github.html_url };
    const issue = await stack.db
      .insertInto("issues")
      .values({
        user_id: octocat.user._id,
        repository_github_id: await githubRepositories.upsert(stack.db, stored),
        issue_number: 1000 + branches,
        title: "Pagination skips an item",
        html_url: `https://github.com/${fullName}/issues/${1000 + branches}`,
      })
      .returning("id")
      .executeTakeFirstOrThrow();
    const solution = await stack.db
      .insertInto("solutions")
      .values({ user_id: octocat.user._id, issue_id: issue.id, analysis: "a", proposed_solution: "p", ai_model: "m" })
      .returning("id")
      .executeTakeFirstOrThrow();
    const row = await pullRequests.record(stack.db, {
      userId: octocat.user._id,
      solutionId: solution.id,
      issueId: issue.id,
      base: stored,
      head: stored,
      number: pr.data.number,
      title: pr.data.title,
      body: "",
      branch,
      baseBranch: "main",
      status: "open",
      htmlUrl: pr.data.html_url,
      metadata: {},
    });
    return { id: row.id, number: pr.data.number, sha: commit.data.sha, branch };
  }

  /** `owner/repo` as a sync stores it for `userId` (with push access); returns its GitHub id. */
  async function storeRepository(userId: string, owner: string, repo: string): Promise<number> {
    // octocat reads it; `userId` is the one stored with push access.
    return storeRepositoryAs(userId, (await gh("octocat").rest.repos.get({ owner, repo })).data);
  }

  /** `r`, GitHub's repository object, as a sync stores it for `userId` (with push access); returns its id. */
  async function storeRepositoryAs(userId: string, r: GithubRepo): Promise<number> {
    await upsertRepository(stack.db, userId, { ...r, permissions: { ...r.permissions, push: true } });
    return r.id;
  }

  async function timeline(id: string) {
    const res = await stack.app.request(`/api/prs/${id}/timeline`, { headers: octocat.headers });
    if (res.status !== 200) throw new Error(`timeline answered ${res.status}: ${await res.text()}`);
    return ((await res.json()) as { timeline: Record<string, unknown>[] }).timeline;
  }

  /** POSTs `payload` as GitHub would; `signature` overrides (null omits) the header. */
  function post(
    event: string,
    payload: unknown,
    o: { delivery?: string; signature?: string | null; raw?: string } = {},
  ) {
    const body = o.raw ?? JSON.stringify(payload);
    const headers: Record<string, string> = {
      "content-type": "application/json",
      "x-github-event": event,
      "x-github-delivery": o.delivery ?? crypto.randomUUID(),
      "user-agent": "GitHub-Hookshot/test",
    };
    const signature = o.signature === undefined ? WebhookSender.sign(WEBHOOK_SECRET, body) : o.signature;
    if (signature !== null) headers["x-hub-signature-256"] = signature;
    return stack.app.request("/api/github/webhook", { method: "POST", headers, body });
  }

  const countEvents = async () =>
    Number(
      (
        await stack.db
          .selectFrom("pull_request_events")
          .select((eb) => eb.fn.countAll().as("n"))
          .executeTakeFirstOrThrow()
      ).n,
    );

  return {
    stack,
    control,
    hook,
    octocat,
    gh,
    openFixloopPull,
    storeRepository,
    storeRepositoryAs,
    timeline,
    post,
    countEvents,
    REPO,
    repository,
  };
}

export type WebhookStack = Awaited<ReturnType<typeof webhookStack>>;

/** A `repository` `renamed` body as GitHub sends it (the fields Fixloop reads). */
export const renamedEvent = (id: number, owner: string, name: string, from: string) => ({
  action: "renamed",
  changes: { repository: { name: { from } } },
  repository: { id, name, full_name: `${owner}/${name}`, owner: { login: owner } },
  sender: { login: owner },
});

/** What the rename tests read and seed: repository rows by GitHub id, a user's issues, the deliveries stored. */
export function renameRows(t: WebhookStack) {
  async function addIssue(userId: string, repo: string, number: number) {
    await t.stack.db
      .insertInto("issues")
      .values({
        user_id: userId,
        repository_github_id: await seedRepository(t.stack.db, repo),
        issue_number: number,
        title: `Issue ${number}`,
        html_url: `https://github.com/${repo}/issues/${number}`,
      })
      .execute();
  }

  const repositoryRows = (githubId: number) =>
    repositories
      .selectWithGithub(t.stack.db)
      .clearSelect()
      .select(["repositories.user_id", "g.owner", "g.name", "g.full_name", "g.html_url"])
      .where("repositories.github_id", "=", String(githubId))
      .orderBy("repositories.user_id")
      .execute();

  const issueNames = (userId: string) =>
    issues
      .selectIssues(t.stack.db)
      .clearSelect()
      .select(["issue_repo.full_name as repo_full_name", "issues.issue_number"])
      .where("issues.user_id", "=", userId)
      .orderBy("issue_repo.full_name")
      .orderBy("issues.issue_number")
      .execute();

  const countDeliveries = async () =>
    Number(
      (
        await t.stack.db
          .selectFrom("webhook_events")
          .select((eb) => eb.fn.countAll().as("n"))
          .executeTakeFirstOrThrow()
      ).n,
    );

  return { addIssue, repositoryRows, issueNames, countDeliveries };
}
