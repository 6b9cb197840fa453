import { Hono } from "hono";
import { readableRepo, writableRepo } from "./access";
import { rawMediaType, wrapBase64 } from "./contents.routes";
import type { SandboxDeps, SandboxEnv } from "./context";
import { DOCS_URL, githubErrors } from "./errors";
import { gitBlob, gitCommit, gitTree } from "./git.payloads";
import type { GitIdentity, TreeChange } from "./git-store";
import { readJson, str } from "./http";

const TREE_LIMIT = 100_000;
const MODES = new Set(["100644", "100755", "040000", "160000", "120000"]);
const TYPES = new Set(["blob", "tree", "commit"]);

function identity(value: unknown, fallback: GitIdentity, doc: string): GitIdentity {
  if (value === undefined) return fallback;
  if (!value || typeof value !== "object") throw githubErrors.invalidField("Commit", "author", doc);
  const v = value as Record<string, unknown>;
  const name = str(v.name);
  const email = str(v.email);
  if (!name || !email) throw githubErrors.unprocessable('Invalid request.\n\n"name", "email" weren\'t supplied.', doc);
  return { name, email, date: str(v.date) ?? fallback.date };
}

export function gitObjectsRoutes(deps: SandboxDeps) {
  const { git, urls, store } = deps;
  return new Hono<SandboxEnv>()
    .get("/blobs/:sha", async (c) => {
      const doc = `${DOCS_URL.blobs}#get-a-blob`;
      const repo = readableRepo(deps, c, doc);
      const dir = git.dir(repo.owner, repo.name);
      const sha = c.req.param("sha");
      if ((await git.objectType(dir, sha)) !== "blob") throw githubErrors.notFound(doc);
      const data = await git.readBlob(dir, sha);
      const raw = rawMediaType(c.req.header("accept"));
      if (raw) return c.body(new Uint8Array(data), 200, { "content-type": `${raw}; charset=utf-8` });
      return c.json(gitBlob(repo, urls, sha, wrapBase64(data), data.length));
    })
    .post("/blobs", async (c) => {
      const doc = `${DOCS_URL.blobs}#create-a-blob`;
      const { repo } = writableRepo(deps, c, doc);
      const body = await readJson(c);
      const content = str(body.content);
      const encoding = str(body.encoding) ?? "utf-8";
      if (content === undefined) throw githubErrors.missingField("Blob", "content", doc);
      if (encoding !== "utf-8" && encoding !== "base64") throw githubErrors.invalidField("Blob", "encoding", doc);
      const data = Buffer.from(content, encoding === "base64" ? "base64" : "utf8");
      const sha = await git.hashBlob(git.dir(repo.owner, repo.name), data);
      return c.json({ url: `${urls.api}/repos/${repo.owner}/${repo.name}/git/blobs/${sha}`, sha }, 201);
    })
    .get("/trees/:sha{.+}", async (c) => {
      const doc = `${DOCS_URL.trees}#get-a-tree`;
      const repo = readableRepo(deps, c, doc);
      const dir = git.dir(repo.owner, repo.name);
      const wanted = c.req.param("sha");
      const type = await git.objectType(dir, wanted);
      const tree =
        type === "tree"
          ? wanted
          : await git.run(dir, ["rev-parse", "--verify", "--quiet", `${wanted}^{tree}`]).then(
              (b) => b.toString().trim(),
              () => null,
            );
      if (!tree) throw githubErrors.notFound(doc);
      const recursive =
        (c.req.query("recursive") ?? "") !== "" &&
        c.req.query("recursive") !== "0" &&
        c.req.query("recursive") !== "false";
      const entries = await git.lsTree(dir, tree, recursive);
      const truncated = entries.length > TREE_LIMIT;
      return c.json(gitTree(repo, urls, tree, entries.slice(0, TREE_LIMIT), truncated));
    })
    .post("/trees", async (c) => {
      const doc = `${DOCS_URL.trees}#create-a-tree`;
      const { repo } = writableRepo(deps, c, doc);
      const dir = git.dir(repo.owner, repo.name);
      const body = await readJson(c);
      if (!Array.isArray(body.tree)) throw githubErrors.missingField("Tree", "tree", doc);
      const baseTree = str(body.base_tree) ?? null;
      if (baseTree) {
        const t = await git.objectType(dir, baseTree);
        if (t !== "tree" && t !== "commit") throw githubErrors.unprocessable("Invalid base_tree", doc);
      }
      const changes: TreeChange[] = [];
      for (const raw of body.tree as unknown[]) {
        const e = (raw ?? {}) as Record<string, unknown>;
        const path = str(e.path);
        const mode = str(e.mode);
        const type = str(e.type) ?? (mode === "040000" ? "tree" : mode === "160000" ? "commit" : "blob");
        if (!path || !mode || !MODES.has(mode) || !TYPES.has(type))
          throw githubErrors.unprocessable("Invalid tree info", doc);
        const hasSha = "sha" in e;
        if (hasSha === (e.content !== undefined))
          throw githubErrors.unprocessable(
            "Must supply either tree.sha or tree.content. Request will be rejected if both are present.",
            doc,
          );
        if (hasSha && e.sha !== null) {
          const sha = str(e.sha) ?? "";
          const actual = await git.objectType(dir, sha);
          if (type !== "commit" && actual !== type)
            throw githubErrors.unprocessable(`tree.sha ${sha} is not a valid ${type}`, doc);
        }
        changes.push({
          path,
          mode,
          type: type as TreeChange["type"],
          sha: hasSha ? (e.sha as string | null) : undefined,
          content: str(e.content),
        });
      }
      const sha = await git.writeTree(dir, baseTree, changes);
      const entries = await git.lsTree(dir, sha);
      return c.json(gitTree(repo, urls, sha, entries, false), 201, {
        location: `${urls.api}/repos/${repo.owner}/${repo.name}/git/trees/${sha}`,
      });
    })
    .get("/commits/:sha", async (c) => {
      const doc = `${DOCS_URL.commits}#get-a-commit-object`;
      const repo = readableRepo(deps, c, doc);
      const dir = git.dir(repo.owner, repo.name);
      const sha = c.req.param("sha");
      if ((await git.objectType(dir, sha)) !== "commit") throw githubErrors.notFound(doc);
      return c.json(gitCommit(repo, urls, await git.readCommit(dir, sha)));
    })
    .post("/commits", async (c) => {
      const doc = `${DOCS_URL.commits}#create-a-commit`;
      const { repo, token } = writableRepo(deps, c, doc);
      const dir = git.dir(repo.owner, repo.name);
      const body = await readJson(c);
      const message = str(body.message);
      const tree = str(body.tree);
      if (message === undefined) throw githubErrors.missingField("Commit", "message", doc);
      if (!tree) throw githubErrors.missingField("Commit", "tree", doc);
      if ((await git.objectType(dir, tree)) !== "tree")
        throw githubErrors.unprocessable("Tree SHA does not exist", doc);
      const parents = body.parents === undefined ? [] : body.parents;
      if (!Array.isArray(parents) || parents.some((p) => typeof p !== "string"))
        throw githubErrors.invalidField("Commit", "parents", doc);
      for (const p of parents as string[]) {
        if ((await git.objectType(dir, p)) !== "commit")
          throw githubErrors.unprocessable("Parent SHA does not exist or is not a commit object", doc);
      }
      const user = store.user(token.login);
      const me: GitIdentity = {
        name: user?.name ?? token.login,
        email: user?.email ?? `${token.login}@users.noreply.github.com`,
      };
      const author = identity(body.author, me, doc);
      const committer = identity(body.committer, author, doc);
      const sha = await git.commitTree(dir, { tree, parents: parents as string[], message, author, committer });
      return c.json(gitCommit(repo, urls, await git.readCommit(dir, sha)), 201, {
        location: `${urls.api}/repos/${repo.owner}/${repo.name}/git/commits/${sha}`,
      });
    });
}
