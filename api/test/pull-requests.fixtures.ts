import { createTestStack, type TestStack } from "./stack";
import type { TestClient } from "./testing";
import { githubRepositories, solutions, type Db } from "@fixloop/db";
import { gitShow, insertRun } from "@fixloop/testkit";
import { createGithubClient, type GithubClient } from "@fixloop/runtime";

export const BUGGY_LINES =
  "  // skip the item already shown at the end of the previous page\n  const start = (current - 1) * size + (current > 1 ? 1 : 0);\n";

/** A whole stack with octocat signed in (repository access granted) and helpers to act on the stand-in. */
export async function prStack(o: Pick<Parameters<typeof createTestStack>[0] & object, "envOf"> = {}) {
  const stack = await createTestStack({
    envOf: o.envOf,
    workers: ["pull-request", "sync", "syntax-check"],
    logLevel: "warn",
    env: { JOB_WAIT_SECONDS: "25" },
  });
  const octocat = await stack.signIn("octocat", { scopes: ["public_repo"] });
  const control = stack.github.control;
  const upstreamDir = control.gitDir("octocat", "todo-api");
  const api = (path: string, init: { method?: string; body?: unknown; headers?: Record<string, string> } = {}) =>
    stack.app.request(`/api${path}`, {
      method: init.method ?? "GET",
      headers: { "content-type": "application/json", ...(init.headers ?? octocat.headers) },
      body: init.body === undefined ? undefined : JSON.stringify(init.body),
    });
  const asUser = (login: string): GithubClient =>
    createGithubClient({ baseUrl: stack.github.url, token: control.issueToken(login, ["public_repo"]) });
  const paginate = gitShow(upstreamDir, "main", "src/paginate.ts");
  return {
    stack,
    octocat,
    /** octocat's typed client. */
    octocatApi: stack.client(octocat.headers),
    control,
    upstreamDir,
    api,
    asUser,
    paginate,
    fixedPaginate: paginate.replace(BUGGY_LINES, "  const start = (current - 1) * size;\n"),
  };
}

/** Commits `files` on top of `branch` of owner/repo as `gh`, like someone pushing to the default branch. */
export async function pushCommit(
  gh: GithubClient,
  owner: string,
  repo: string,
  branch: string,
  files: Record<string, string>,
): Promise<string> {
  const ref = await gh.rest.git.getRef({ owner, repo, ref: `heads/${branch}` });
  const parent = await gh.rest.git.getCommit({ owner, repo, commit_sha: ref.data.object.sha });
  const tree = await gh.rest.git.createTree({
    owner,
    repo,
    base_tree: parent.data.tree.sha,
    tree: Object.entries(files).map(([path, content]) => ({
      path,
      mode: "100644" as const,
      type: "blob" as const,
      content,
    })),
  });
  const commit = await gh.rest.git.createCommit({
    owner,
    repo,
    message: "Upstream change",
    tree: tree.data.sha,
    parents: [parent.data.sha],
  });
  await gh.rest.git.updateRef({ owner, repo, ref: `heads/${branch}`, sha: commit.data.sha });
  return commit.data.sha;
}

export const writes = <T extends { method: string }>(log: T[]): T[] =>
  log.filter((r) => r.method !== "GET" && r.method !== "HEAD");

/**
 * Approves a solution as the user `headers` belong to: the review page's request, which opens the
 * pull request and answers once its job has ended (202 with the job id when it outlasts
 * JOB_WAIT_SECONDS). `extra` carries the body's optional fields.
 */
export const approve = async (
  stack: { app: Pick<TestStack["app"], "request"> },
  solutionId: string,
  headers: Record<string, string>,
  extra: { comments?: string; baseBranch?: string } = {},
): Promise<Response> =>
  stack.app.request(`/api/validations/${solutionId}/validate`, {
    method: "POST",
    headers: { ...headers, "content-type": "application/json" },
    body: JSON.stringify({ status: "approved", ...extra }),
  });

/** `approve` through a user's typed client: the answer's body is the route's own type, not a cast. */
export const approveVia = (
  api: TestClient,
  solutionId: string,
  extra: { comments?: string; baseBranch?: string } = {},
) => api.validations[":id"].validate.$post({ param: { id: solutionId }, json: { status: "approved", ...extra } });

/** The pull request an approval opened (its answer's `githubUrl`); throws with the answer when it opened none. */
export async function openedPullRequest(res: Awaited<ReturnType<typeof approveVia>>): Promise<string> {
  const body = await res.json();
  if (!("githubUrl" in body)) throw new Error(`the approval opened no pull request: ${JSON.stringify(body)}`);
  return body.githubUrl;
}

/** What a finished "Address review" refinement records: the solution's next revision, with `content` in `filename`. */
export async function recordRevision(db: Db, userId: string, solutionId: string, filename: string, content: string) {
  const s = await solutions.findOfUser(db, userId, solutionId);
  if (!s) throw new Error("no solution");
  const run = await insertRun(db, {
    user_id: userId,
    issue_id: s.issue_id,
    kind: "refine",
    solution_id: solutionId,
    status: "completed",
  });
  await db.transaction().execute(async (trx) => {
    await solutions.keepCurrentRevision(trx, s);
    await solutions.recordRefinement(trx, run.id, solutionId, {
      analysis: s.analysis,
      proposedSolution: s.proposed_solution,
      model: s.ai_model,
      confidence: s.confidence,
      filesChanged: s.files_changed.map((f) => (f.filename === filename ? { ...f, content } : f)),
      metadata: s.metadata,
      refinementCount: s.refinement_count + 1,
      feedback: "Compare with the empty string.",
    });
  });
}

/**
 * `owner/repo` stored under the stand-in's GitHub id, as a sync or an import stores it: rows seeded
 * afterwards by its name (`seedSolution`, `insertIssue`) name it by that id, as the product's own do.
 */
export async function storedAsOnGithub(
  t: { stack: Pick<TestStack, "db">; asUser: (login: string) => GithubClient },
  owner: string,
  repo: string,
): Promise<number> {
  const { data } = await t.asUser(owner).rest.repos.get({ owner, repo });
  await githubRepositories.upsert(t.stack.db, {
    github_id: data.id,
    full_name: data.full_name,
    html_url: data.html_url,
  });
  return data.id;
}
