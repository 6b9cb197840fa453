import { Hono } from "hono";
import fs from "node:fs";
import { canRead, hasScope, readableRepo, requireUser, requireWriteScope, viewerOf, writableRepo } from "./access";
import { contentsRoutes } from "./contents.routes";
import type { SandboxDeps, SandboxEnv } from "./context";
import { DOCS_URL, githubErrors } from "./errors";
import { paginate, readJson, str } from "./http";
import { label } from "./issues.payloads";
import { fullRepository, repository } from "./repos.payloads";
import { isoNow, type RepoRecord } from "./state";

const MERGE_UPSTREAM_DOC =
  "https://docs.github.com/rest/branches/branches#sync-a-fork-branch-with-the-upstream-repository";

export function reposRoutes(deps: SandboxDeps) {
  const { store, git, urls } = deps;

  async function fork(
    source: RepoRecord,
    login: string,
    opts: { name?: string; defaultBranchOnly: boolean },
  ): Promise<RepoRecord> {
    const existing = store.data.repos.find(
      (r) => r.owner.toLowerCase() === login.toLowerCase() && r.parentId === source.id,
    );
    if (existing) return existing;
    let name = opts.name ?? source.name;
    for (let n = 1; store.repo(login, name); n += 1) name = `${opts.name ?? source.name}-${n}`;
    const target = git.dir(login, name);
    const args = [
      "clone",
      "--quiet",
      "--bare",
      "--no-hardlinks",
      ...(opts.defaultBranchOnly ? ["--single-branch", "--branch", source.defaultBranch] : []),
    ];
    await git.run(null, [...args, git.dir(source.owner, source.name), target]);
    const now = isoNow();
    return store.mutate((s) => {
      const repo: RepoRecord = {
        ...source,
        id: store.nextId(),
        owner: store.user(login)?.login ?? login,
        name,
        parentId: source.id,
        collaborators: [],
        labels: source.labels.map((l) => ({ ...l, id: store.nextId() })),
        nextNumber: 1,
        topics: [],
        createdAt: now,
        updatedAt: now,
        pushedAt: source.pushedAt,
      };
      s.repos.push(repo);
      return repo;
    });
  }

  /**
   * Deletes the repository with its git data, issues and comments. Its forks stay, attached to its
   * parent (or standalone); pull requests it headed elsewhere keep a null head repository, as on GitHub.
   */
  async function remove(repo: RepoRecord): Promise<void> {
    const dir = git.dir(repo.owner, repo.name);
    await git.lock(dir, async () => fs.promises.rm(dir, { recursive: true, force: true }));
    store.mutate((s) => {
      s.repos = s.repos.filter((r) => r.id !== repo.id);
      for (const r of s.repos) if (r.parentId === repo.id) r.parentId = repo.parentId;
      s.issues = s.issues.filter((i) => i.repoId !== repo.id);
      s.issueComments = s.issueComments?.filter((x) => x.repoId !== repo.id);
      s.reviews = s.reviews?.filter((x) => x.repoId !== repo.id);
      s.reviewComments = s.reviewComments?.filter((x) => x.repoId !== repo.id);
      s.checkRuns = s.checkRuns?.filter((x) => x.repoId !== repo.id);
    });
  }

  return new Hono<SandboxEnv>()
    .get("/", (c) => {
      const repo = readableRepo(deps, c, `${DOCS_URL.repos}#get-a-repository`);
      return c.json(fullRepository(repo, store, urls, viewerOf(c)));
    })
    .delete("/", async (c) => {
      const doc = `${DOCS_URL.repos}#delete-a-repository`;
      const token = requireUser(c, doc);
      const repo = readableRepo(deps, c, doc);
      c.set("acceptedScopes", "delete_repo");
      // Admin rights (here: the owner) and, for OAuth tokens, the delete_repo scope.
      if (repo.owner.toLowerCase() !== token.login.toLowerCase() || !hasScope(token, "delete_repo"))
        throw githubErrors.forbidden("Must have admin rights to Repository.", doc);
      await git.lock(`fork:${repo.owner}`, () => remove(repo));
      return c.body(null, 204);
    })
    .get("/labels", (c) => {
      const repo = readableRepo(deps, c, "https://docs.github.com/rest/issues/labels#list-labels-for-a-repository");
      const page = paginate(c, repo.labels, `${urls.api}/repositories/${repo.id}/labels`);
      return c.json(page.items.map((l) => label(l, repo, urls)));
    })
    .get("/forks", (c) => {
      const repo = readableRepo(deps, c, `${DOCS_URL.forks}#list-forks`);
      const forks = store.forksOf(repo.id).filter((f) => canRead(store, f, c.get("auth")));
      const page = paginate(c, forks, `${urls.api}/repositories/${repo.id}/forks`);
      return c.json(page.items.map((f) => repository(f, store, urls, viewerOf(c))));
    })
    .post("/forks", async (c) => {
      const doc = `${DOCS_URL.forks}#create-a-fork`;
      const token = requireUser(c, doc);
      const source = readableRepo(deps, c, doc);
      requireWriteScope(c, token, source, doc);
      const body = await readJson(c);
      const org = str(body.organization);
      if (org && store.user(org))
        throw githubErrors.unprocessable(
          `'${org}' is the login for a user account. You must pass the login for an organization account.`,
          doc,
        );
      if (body.organization !== undefined) throw githubErrors.invalidField("Fork", "organization", doc);
      if (source.owner.toLowerCase() === token.login.toLowerCase()) {
        throw githubErrors.forbidden("Forking a repository you own into the same account is not supported.", doc);
      }
      const created = await git.lock(`fork:${token.login}`, () =>
        fork(source, token.login, { name: str(body.name), defaultBranchOnly: body.default_branch_only === true }),
      );
      return c.json(fullRepository(created, store, urls, token.login), 202);
    })
    .post("/merge-upstream", async (c) => {
      const { repo } = writableRepo(deps, c, MERGE_UPSTREAM_DOC);
      const body = await readJson(c);
      const branch = str(body.branch);
      if (!branch) throw githubErrors.missingField("MergeUpstream", "branch", MERGE_UPSTREAM_DOC);
      const parent = store.parentOf(repo);
      if (!parent) throw githubErrors.unprocessable("This repository is not a fork.", MERGE_UPSTREAM_DOC);
      const dir = git.dir(repo.owner, repo.name);
      const upstreamDir = git.dir(parent.owner, parent.name);
      const baseBranch = `${parent.owner}:${branch}`;
      return git.lock(dir, async () => {
        const ours = await git.resolve(dir, `refs/heads/${branch}`);
        const upstream = await git.resolve(upstreamDir, `refs/heads/${branch}`);
        if (!ours || !upstream) throw githubErrors.unprocessable(`Branch ${branch} not found.`, MERGE_UPSTREAM_DOC);
        await git.fetch(dir, upstreamDir, `+refs/heads/${branch}:refs/sandbox/upstream`);
        try {
          if (await git.isAncestor(dir, upstream, ours)) {
            return c.json({
              message: `This branch is not behind the upstream ${baseBranch}.`,
              merge_type: "none",
              base_branch: baseBranch,
            });
          }
          if (await git.isAncestor(dir, ours, upstream)) {
            await git.updateRef(dir, `refs/heads/${branch}`, upstream, ours);
            store.mutate(() => (repo.pushedAt = isoNow()));
            return c.json({
              message: `Successfully fetched and fast-forwarded from upstream ${baseBranch}.`,
              merge_type: "fast-forward",
              base_branch: baseBranch,
            });
          }
          const merged = await git.mergeTree(dir, ours, upstream);
          if (!merged.clean) throw githubErrors.conflict("There are merge conflicts", MERGE_UPSTREAM_DOC);
          const author = { name: "GitHub", email: "noreply@github.com" };
          const message = `Merge branch '${branch}' of ${urls.html}/${parent.owner}/${parent.name}`;
          const sha = await git.commitTree(dir, { tree: merged.tree, parents: [ours, upstream], message, author });
          await git.updateRef(dir, `refs/heads/${branch}`, sha, ours);
          store.mutate(() => (repo.pushedAt = isoNow()));
          return c.json({
            message: `Successfully fetched and merged from upstream ${baseBranch}.`,
            merge_type: "merge",
            base_branch: baseBranch,
          });
        } finally {
          await git.deleteRef(dir, "refs/sandbox/upstream");
        }
      });
    })
    .route("/", contentsRoutes(deps));
}
