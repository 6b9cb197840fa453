import { Hono } from "hono";
import type { Context } from "hono";
import { readableRepo, writableRepo } from "./access";
import type { SandboxDeps, SandboxEnv } from "./context";
import { DOCS_URL, githubErrors } from "./errors";
import { gitRef } from "./git.payloads";
import { readJson, str } from "./http";
import { isoNow, type RepoRecord } from "./state";
import { pullsService } from "./pulls.service";
import { announcePush } from "./webhooks.push";

const doc = (anchor: string) => `${DOCS_URL.refs}#${anchor}`;
const VALID_REF = /^refs\/[^\s~^:?*[\\]+\/[^\s~^:?*[\\]+$/;

export function gitRefsRoutes(deps: SandboxDeps) {
  const pulls = pullsService(deps);
  const { git, urls, store } = deps;
  const dirOf = (repo: RepoRecord) => git.dir(repo.owner, repo.name);

  async function list(c: Context<SandboxEnv>, prefix: string, anchor: string) {
    const repo = readableRepo(deps, c, doc(anchor));
    const refs = await git.refs(dirOf(repo));
    return { repo, refs: refs.filter((r) => r.ref.startsWith(`refs/${prefix}`)) };
  }

  const listAll = async (c: Context<SandboxEnv>) => {
    const { repo, refs } = await list(c, "", "list-matching-references");
    return c.json(refs.map((r) => gitRef(repo, urls, r)));
  };

  const touched = (repo: RepoRecord) => store.mutate(() => (repo.pushedAt = repo.updatedAt = isoNow()));

  return new Hono<SandboxEnv>()
    .get("/refs", listAll)
    .get("/refs/", listAll)
    .get("/matching-refs/:ref{.*}", async (c) => {
      const { repo, refs } = await list(c, c.req.param("ref") ?? "", "list-matching-references");
      return c.json(refs.map((r) => gitRef(repo, urls, r)));
    })
    .get("/ref/:ref{.+}", async (c) => {
      const name = `refs/${c.req.param("ref")}`;
      const { repo, refs } = await list(c, c.req.param("ref"), "get-a-reference");
      const exact = refs.find((r) => r.ref === name);
      if (!exact) throw githubErrors.notFound(doc("get-a-reference"));
      return c.json(gitRef(repo, urls, exact));
    })
    .get("/refs/:ref{.+}", async (c) => {
      const name = `refs/${c.req.param("ref").replace(/\/$/, "")}`;
      const { repo, refs } = await list(c, c.req.param("ref"), "get-a-reference");
      const exact = refs.find((r) => r.ref === name);
      if (exact) return c.json(gitRef(repo, urls, exact));
      const under = refs.filter((r) => r.ref.startsWith(`${name}/`));
      if (under.length === 0) throw githubErrors.notFound(doc("get-a-reference"));
      return c.json(under.map((r) => gitRef(repo, urls, r)));
    })
    .post("/refs", async (c) => {
      const { repo } = writableRepo(deps, c, doc("create-a-reference"));
      const body = await readJson(c);
      const ref = str(body.ref);
      const sha = str(body.sha);
      if (!ref) throw githubErrors.missingField("Reference", "ref", doc("create-a-reference"));
      if (!sha) throw githubErrors.missingField("Reference", "sha", doc("create-a-reference"));
      if (!VALID_REF.test(ref))
        throw githubErrors.unprocessable(
          "Reference name must start with 'refs' and have at least two slashes.",
          doc("create-a-reference"),
        );
      const dir = dirOf(repo);
      return git.lock(dir, async () => {
        if (!(await git.objectType(dir, sha)))
          throw githubErrors.unprocessable("Object does not exist", doc("create-a-reference"));
        if ((await git.refs(dir)).some((r) => r.ref === ref))
          throw githubErrors.unprocessable("Reference already exists", doc("create-a-reference"));
        await git.updateRef(dir, ref, sha);
        touched(repo);
        const created = (await git.refs(dir)).find((r) => r.ref === ref);
        if (!created) throw new Error(`ref ${ref} vanished after creation`);
        return c.json(gitRef(repo, urls, created), 201, {
          location: `${urls.api}/repos/${repo.owner}/${repo.name}/git/${ref}`,
        });
      });
    })
    .patch("/refs/:ref{.+}", async (c) => {
      const { repo, token } = writableRepo(deps, c, doc("update-a-reference"));
      const body = await readJson(c);
      const sha = str(body.sha);
      if (!sha) throw githubErrors.missingField("Reference", "sha", doc("update-a-reference"));
      const name = `refs/${c.req.param("ref")}`;
      const dir = dirOf(repo);
      return git.lock(dir, async () => {
        const current = (await git.refs(dir)).find((r) => r.ref === name);
        if (!current) throw githubErrors.unprocessable("Reference does not exist", doc("update-a-reference"));
        if ((await git.objectType(dir, sha)) !== "commit")
          throw githubErrors.unprocessable("Object does not exist", doc("update-a-reference"));
        const fastForward = await git.isAncestor(dir, current.sha, sha);
        if (body.force !== true && !fastForward) {
          throw githubErrors.unprocessable("Update is not a fast forward", doc("update-a-reference"));
        }
        await git.updateRef(dir, name, sha, current.sha);
        deps.refUpdates.push({
          repo: `${repo.owner}/${repo.name}`,
          ref: name,
          from: current.sha,
          to: sha,
          force: body.force === true,
          fastForward,
        });
        touched(repo);
        deps.hooks.track(announcePush(deps, pulls, repo, name, current.sha, sha, token.login));
        return c.json(gitRef(repo, urls, { ref: name, sha, type: "commit" }));
      });
    })
    .delete("/refs/:ref{.+}", async (c) => {
      const { repo } = writableRepo(deps, c, doc("delete-a-reference"));
      const name = `refs/${c.req.param("ref")}`;
      const dir = dirOf(repo);
      return git.lock(dir, async () => {
        if (!(await git.refs(dir)).some((r) => r.ref === name))
          throw githubErrors.unprocessable("Reference does not exist", doc("delete-a-reference"));
        await git.deleteRef(dir, name);
        touched(repo);
        return c.body(null, 204);
      });
    });
}
