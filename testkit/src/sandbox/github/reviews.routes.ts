import { Hono } from "hono";
import type { Context } from "hono";
import { readableRepo, requireIntegrationWrite, requireUser, writableRepo } from "./access";
import type { SandboxDeps, SandboxEnv } from "./context";
import { DOCS_URL, githubErrors } from "./errors";
import { paginate, readJson, str } from "./http";
import { isPull } from "./pulls.payloads";
import { isoNow, type RepoRecord } from "./state";
import { jobLogUrl } from "./actions-logs.routes";
import { reviewsService } from "./reviews.service";
import { webhookPayloads, type ReviewRecord } from "./webhooks.payloads";

const REVIEW_STATES: Record<string, ReviewRecord["state"]> = {
  APPROVE: "APPROVED",
  REQUEST_CHANGES: "CHANGES_REQUESTED",
  COMMENT: "COMMENTED",
};

/**
 * A reviewer's review comments and reviews on a pull request, and check results reported on a
 * commit. Each is answered like GitHub and delivered as a signed webhook when one is configured.
 */
export function reviewsRoutes(deps: SandboxDeps) {
  const { store, urls } = deps;
  const payloads = webhookPayloads(deps);
  const service = reviewsService(deps);

  function pullOf(repo: RepoRecord, c: Context<SandboxEnv>, doc: string) {
    const pr = store.issue(repo.id, Number(c.req.param("number")));
    if (!pr || !isPull(pr)) throw githubErrors.notFound(doc);
    return pr;
  }

  return new Hono<SandboxEnv>()
    .post("/pulls/:number{[0-9]+}/comments", async (c) => {
      const doc = `${DOCS_URL.pulls}/comments#create-a-review-comment-for-a-pull-request`;
      const token = requireUser(c, doc);
      const repo = readableRepo(deps, c, doc);
      requireIntegrationWrite(token, repo, "pull_requests", doc);
      const pr = pullOf(repo, c, doc);
      const body = await readJson(c);
      const text = str(body.body);
      const path = str(body.path);
      const line = typeof body.line === "number" && Number.isInteger(body.line) ? body.line : undefined;
      if (!text || !path || !line) throw githubErrors.unprocessable("body, path and line are required", doc);
      const side = body.side === "LEFT" ? "LEFT" : "RIGHT";
      const comment = service.addReviewComment(
        repo,
        pr,
        { body: text, path, line, side, commitId: str(body.commit_id) },
        token.login,
      );
      return c.json(comment, 201);
    })
    .post("/pulls/:number{[0-9]+}/comments/:comment_id{[0-9]+}/replies", async (c) => {
      const doc = `${DOCS_URL.pulls}/comments#create-a-reply-for-a-review-comment`;
      const token = requireUser(c, doc);
      const repo = readableRepo(deps, c, doc);
      requireIntegrationWrite(token, repo, "pull_requests", doc);
      const pr = pullOf(repo, c, doc);
      const parentId = Number(c.req.param("comment_id"));
      const parent = (store.data.reviewComments ?? []).find(
        (x) => x.repoId === repo.id && x.number === pr.number && x.id === parentId,
      );
      if (!parent) throw githubErrors.notFound(doc);
      const text = str((await readJson(c)).body);
      if (!text) throw githubErrors.missingField("PullRequestReviewComment", "body", doc);
      // A reply joins the thread of the comment it answers (GitHub threads have one level).
      const root = parent.inReplyTo ?? parent.id;
      const reply = {
        ...parent,
        id: store.nextId(),
        reviewId: store.nextId(),
        body: text,
        user: token.login,
        createdAt: isoNow(),
        inReplyTo: root,
      };
      store.mutate((s) => (s.reviewComments ??= []).push(reply));
      const payload = payloads.reviewComment(repo, pr, reply, token.login);
      deps.hooks.send("pull_request_review_comment", payload);
      return c.json(payload.comment, 201);
    })
    .post("/pulls/:number{[0-9]+}/reviews", async (c) => {
      const doc = `${DOCS_URL.pulls}/reviews#create-a-review-for-a-pull-request`;
      const token = requireUser(c, doc);
      const repo = readableRepo(deps, c, doc);
      requireIntegrationWrite(token, repo, "pull_requests", doc);
      const pr = pullOf(repo, c, doc);
      const body = await readJson(c);
      const state = REVIEW_STATES[str(body.event) ?? ""];
      if (!state) throw githubErrors.unprocessable("event must be APPROVE, REQUEST_CHANGES or COMMENT", doc);
      if (pr.user === token.login && state !== "COMMENTED")
        throw githubErrors.unprocessable("Can not approve or request changes on your own pull request", doc);
      const review = {
        id: store.nextId(),
        repoId: repo.id,
        number: pr.number,
        body: str(body.body) ?? "",
        state,
        commitId: str(body.commit_id) ?? pr.pull.headSha,
        user: token.login,
        submittedAt: isoNow(),
      };
      store.mutate((s) => (s.reviews ??= []).push(review));
      const payload = payloads.review(repo, pr, review);
      deps.hooks.send("pull_request_review", payload);
      return c.json({ ...payload.review, body: review.body, state }, 200);
    })
    .get("/pulls/:number{[0-9]+}/comments", (c) => {
      const doc = `${DOCS_URL.pulls}/comments#list-review-comments-on-a-pull-request`;
      const repo = readableRepo(deps, c, doc);
      const pr = pullOf(repo, c, doc);
      const all = (store.data.reviewComments ?? []).filter((x) => x.repoId === repo.id && x.number === pr.number);
      const page = paginate(c, all, `${urls.api}/repositories/${repo.id}/pulls/${pr.number}/comments`);
      return c.json(page.items.map((x) => payloads.reviewComment(repo, pr, x, x.user).comment));
    })
    .get("/pulls/:number{[0-9]+}/reviews", (c) => {
      const doc = `${DOCS_URL.pulls}/reviews#list-reviews-for-a-pull-request`;
      const repo = readableRepo(deps, c, doc);
      const pr = pullOf(repo, c, doc);
      const all = (store.data.reviews ?? []).filter((x) => x.repoId === repo.id && x.number === pr.number);
      const page = paginate(c, all, `${urls.api}/repositories/${repo.id}/pulls/${pr.number}/reviews`);
      return c.json(page.items.map((x) => ({ ...payloads.review(repo, pr, x).review, body: x.body, state: x.state })));
    })
    .get("/commits/:ref/check-runs", (c) => {
      const repo = readableRepo(
        deps,
        c,
        "https://docs.github.com/rest/checks/runs#list-check-runs-for-a-git-reference",
      );
      const ref = c.req.param("ref");
      const runs = (store.data.checkRuns ?? []).filter((x) => x.repoId === repo.id && x.headSha === ref);
      const pulls = store
        .issuesOf(repo.id)
        .filter(isPull)
        .filter((p) => p.pull.headSha === ref);
      // total_count counts every run; check_runs is one page of them.
      const page = paginate(c, runs, `${urls.api}/repositories/${repo.id}/commits/${ref}/check-runs`);
      const check_runs = page.items.map((x) => payloads.checkRun(repo, x, pulls, repo.owner).check_run);
      return c.json({ total_count: runs.length, check_runs });
    })
    .get("/check-runs/:check_run_id{[0-9]+}", (c) => {
      const doc = "https://docs.github.com/rest/checks/runs#get-a-check-run";
      const repo = readableRepo(deps, c, doc);
      const run = (store.data.checkRuns ?? []).find(
        (x) => x.repoId === repo.id && x.id === Number(c.req.param("check_run_id")),
      );
      if (!run) throw githubErrors.notFound(doc);
      const pulls = store
        .issuesOf(repo.id)
        .filter(isPull)
        .filter((p) => p.pull.headSha === run.headSha);
      return c.json(payloads.checkRun(repo, run, pulls, repo.owner).check_run);
    })
    .get("/actions/jobs/:job_id{[0-9]+}/logs", (c) => {
      const doc = "https://docs.github.com/rest/actions/workflow-jobs#download-job-logs-for-a-workflow-run";
      const repo = readableRepo(deps, c, doc);
      const run = (store.data.checkRuns ?? []).find(
        (x) => x.repoId === repo.id && x.id === Number(c.req.param("job_id")) && x.actions,
      );
      if (!run?.actions) throw githubErrors.notFound(doc);
      return c.body(null, 302, { location: run.actions.logUrl ?? jobLogUrl(deps, run.id) });
    })
    .post("/check-runs", async (c) => {
      const doc = "https://docs.github.com/rest/checks/runs#create-a-check-run";
      const { repo, token } = writableRepo(deps, c, doc);
      const body = await readJson(c);
      const name = str(body.name);
      const headSha = str(body.head_sha);
      const conclusion = str(body.conclusion);
      if (!name || !headSha || !conclusion)
        throw githubErrors.unprocessable("name, head_sha and conclusion are required", doc);
      const output =
        typeof body.output === "object" && body.output !== null ? (body.output as Record<string, unknown>) : {};
      const run = service.addCheckRun(
        repo,
        {
          name,
          headSha,
          conclusion,
          title: str(output.title),
          summary: str(output.summary),
          text: str(output.text)?.slice(0, 65_535),
          startedAt: str(body.started_at),
          completedAt: str(body.completed_at),
        },
        token.login,
      );
      return c.json(run, 201);
    });
}
