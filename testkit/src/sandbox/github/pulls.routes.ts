import { Hono } from "hono";
import type { Context } from "hono";
import { readableRepo, requireUser, requireWriteScope, viewerOf, writableRepo } from "./access";
import type { SandboxDeps, SandboxEnv } from "./context";
import { DOCS_URL, githubErrors } from "./errors";
import { paginate, readJson, str } from "./http";
import { isPull, pullFull, pullSimple } from "./pulls.payloads";
import { pullsService } from "./pulls.service";
import { isoNow, type IssueRecord, type RepoRecord } from "./state";

const doc = (anchor: string) => `${DOCS_URL.pulls}#${anchor}`;

export function pullsRoutes(deps: SandboxDeps) {
  const { store, urls } = deps;
  const service = pullsService(deps);

  function findPull(repo: RepoRecord, c: Context<SandboxEnv>, anchor: string) {
    const pr = store.issue(repo.id, Number(c.req.param("number")));
    if (!pr || !isPull(pr)) throw githubErrors.notFound(doc(anchor));
    return pr;
  }

  async function full(c: Context<SandboxEnv>, repo: RepoRecord, pr: IssueRecord, status: 200 | 201 = 200) {
    if (!isPull(pr)) throw githubErrors.notFound();
    await service.refresh(repo, pr);
    const stats = await service.stats(repo, pr);
    return c.json(pullFull(pr, repo, store, urls, viewerOf(c), stats), status);
  }

  return new Hono<SandboxEnv>()
    .get("/pulls", async (c) => {
      const repo = readableRepo(deps, c, doc("list-pull-requests"));
      const state = c.req.query("state") ?? "open";
      if (!["open", "closed", "all"].includes(state))
        throw githubErrors.invalidField("PullRequest", "state", doc("list-pull-requests"));
      const head = c.req.query("head");
      const baseRef = c.req.query("base");
      const pulls = store.issuesOf(repo.id).filter(isPull);
      for (const pr of pulls) await service.refresh(repo, pr);
      const items = pulls.filter((pr) => {
        if (state !== "all" && pr.state !== state) return false;
        if (baseRef && pr.pull.baseRef !== baseRef) return false;
        if (head) {
          const [owner, ref] = head.includes(":") ? head.split(":", 2) : [head, undefined];
          const headRepo = store.repoById(pr.pull.headRepoId);
          if (headRepo?.owner.toLowerCase() !== owner?.toLowerCase()) return false;
          if (ref !== undefined && pr.pull.headRef !== ref) return false;
        }
        return true;
      });
      const key = c.req.query("sort") === "updated" ? "updatedAt" : "createdAt";
      const asc = c.req.query("direction") === "asc";
      items.sort((a, b) => (a[key] === b[key] ? a.number - b.number : a[key] < b[key] ? -1 : 1) * (asc ? 1 : -1));
      const page = paginate(c, items, `${urls.api}/repositories/${repo.id}/pulls`);
      return c.json(page.items.map((pr) => pullSimple(pr, repo, store, urls, viewerOf(c))));
    })
    .post("/pulls", async (c) => {
      const d = doc("create-a-pull-request");
      const token = requireUser(c, d);
      const repo = readableRepo(deps, c, d);
      requireWriteScope(c, token, repo, d, "pull_requests");
      const body = await readJson(c);
      const title = str(body.title);
      const head = str(body.head);
      const base = str(body.base);
      const missing = [!title && "title", !head && "head", !base && "base"].filter((f): f is string => Boolean(f));
      if (missing.length || !title || !head || !base) {
        throw githubErrors.validation(
          missing.map((field) => ({ resource: "PullRequest", code: "missing_field", field })),
          d,
        );
      }
      const draft = body.draft === true;
      // GitHub Free and Pro offer drafts only in public repositories; GitHub answers with a bare message.
      if (draft && repo.private && (store.user(repo.owner)?.plan ?? "free") !== "team")
        throw githubErrors.unprocessable("Draft pull requests are not supported in this repository.", d);
      const pr = await service.create(repo, {
        login: token.login,
        title,
        body: str(body.body) ?? null,
        head,
        headRepo: str(body.head_repo),
        base,
        draft,
        maintainerCanModify: typeof body.maintainer_can_modify === "boolean" ? body.maintainer_can_modify : undefined,
      });
      c.header("location", `${urls.api}/repos/${repo.owner}/${repo.name}/pulls/${pr.number}`);
      return full(c, repo, pr, 201);
    })
    .get("/pulls/:number{[0-9]+}", async (c) => {
      const repo = readableRepo(deps, c, doc("get-a-pull-request"));
      return full(c, repo, findPull(repo, c, "get-a-pull-request"));
    })
    .patch("/pulls/:number{[0-9]+}", async (c) => {
      const token = requireUser(c, doc("update-a-pull-request"));
      const repo = readableRepo(deps, c, doc("update-a-pull-request"));
      requireWriteScope(c, token, repo, doc("update-a-pull-request"), "pull_requests");
      const pr = findPull(repo, c, "update-a-pull-request");
      const canEdit = pr.user === token.login || repo.owner === token.login || repo.collaborators.includes(token.login);
      if (!canEdit)
        throw githubErrors.forbidden(
          "Must have push access to update this pull request.",
          doc("update-a-pull-request"),
        );
      const body = await readJson(c);
      const state = str(body.state);
      if (state && state !== "open" && state !== "closed")
        throw githubErrors.invalidField("PullRequest", "state", doc("update-a-pull-request"));
      if (state === "open" && pr.pull.merged)
        throw githubErrors.unprocessable("Cannot reopen a merged pull request", doc("update-a-pull-request"));
      const now = isoNow();
      const reopened = state === "open" && pr.state === "closed";
      store.mutate(() => {
        if (str(body.title)) pr.title = str(body.title) ?? pr.title;
        if (body.body !== undefined) pr.body = str(body.body) ?? null;
        if (state && state !== pr.state)
          Object.assign(pr, {
            state,
            closedAt: state === "closed" ? now : null,
            closedBy: state === "closed" ? token.login : null,
          });
        pr.updatedAt = now;
      });
      if (state === "closed" && pr.closedAt === now) await service.announceClosed(repo, pr, token.login);
      if (reopened) await service.announceClosed(repo, pr, token.login, "reopened");
      return full(c, repo, pr);
    })
    .put("/pulls/:number{[0-9]+}/merge", async (c) => {
      const { repo, token } = writableRepo(deps, c, doc("merge-a-pull-request"), "contents");
      const pr = findPull(repo, c, "merge-a-pull-request");
      if (pr.pull.merged)
        throw githubErrors.unprocessable("Pull Request is not mergeable", doc("merge-a-pull-request"));
      const body = await readJson(c);
      const sha = await service.merge(repo, pr, token.login, str(body.commit_title));
      return c.json({ sha, merged: true, message: "Pull Request successfully merged" });
    });
}
