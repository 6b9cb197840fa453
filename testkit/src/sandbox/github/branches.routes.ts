import { Hono } from "hono";
import { readableRepo } from "./access";
import type { SandboxDeps, SandboxEnv } from "./context";
import { DOCS_URL } from "./errors";
import { paginate } from "./http";

/** `GET /repos/{owner}/{repo}/branches`: GitHub's short-branch objects, by name, paginated (a branch's head is its git ref). */
export function branchesRoutes(deps: SandboxDeps) {
  const { git, urls } = deps;
  return new Hono<SandboxEnv>().get("/branches", async (c) => {
    const repo = readableRepo(deps, c, `${DOCS_URL.branches}#list-branches`);
    const heads = await git.refs(git.dir(repo.owner, repo.name), "refs/heads/");
    const api = `${urls.api}/repos/${repo.owner}/${repo.name}`;
    const all = heads
      .map((h) => ({ name: h.ref.slice("refs/heads/".length), sha: h.sha }))
      .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    const page = paginate(c, all, `${urls.api}/repositories/${repo.id}/branches`);
    return c.json(
      page.items.map((b) => ({
        name: b.name,
        commit: { sha: b.sha, url: `${api}/commits/${b.sha}` },
        protected: false,
      })),
    );
  });
}
