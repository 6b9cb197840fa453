import { Hono } from "hono";
import type { Context } from "hono";
import { readableRepo } from "./access";
import type { SandboxDeps, SandboxEnv } from "./context";
import { DOCS_URL, GithubError, githubErrors } from "./errors";
import type { TreeEntry } from "./git-store";
import type { RepoRecord } from "./state";

const DOC = `${DOCS_URL.contents}#get-repository-content`;

/** The raw media type the client asked for (`application/vnd.github[.v3].raw`), if any. */
export const rawMediaType = (accept: string | undefined): string | null =>
  /application\/vnd\.github(?:\.v3)?\.raw/.exec(accept ?? "")?.[0] ?? null;

/** Base64 wrapped at 60 characters per line, as GitHub sends file content. */
export const wrapBase64 = (buf: Buffer): string => (buf.toString("base64").match(/.{1,60}/g) ?? [""]).join("\n") + "\n";

export function contentsRoutes(deps: SandboxDeps) {
  const { git, urls } = deps;

  function links(repo: RepoRecord, ref: string, entry: TreeEntry, path: string) {
    const repoPath = `${repo.owner}/${repo.name}`;
    const self = `${urls.api}/repos/${repoPath}/contents/${path}?ref=${ref}`;
    const gitUrl = `${urls.api}/repos/${repoPath}/git/${entry.type === "tree" ? "trees" : "blobs"}/${entry.sha}`;
    const html = `${urls.html}/${repoPath}/${entry.type === "tree" ? "tree" : "blob"}/${ref}/${path}`;
    const type =
      entry.type === "tree"
        ? "dir"
        : entry.type === "commit"
          ? "submodule"
          : entry.mode === "120000"
            ? "symlink"
            : "file";
    return {
      name: path.split("/").pop() ?? path,
      path,
      sha: entry.sha,
      size: entry.size ?? 0,
      url: self,
      html_url: html,
      git_url: gitUrl,
      download_url: type === "file" ? `${urls.api}/raw/${repoPath}/${ref}/${path}` : null,
      type,
      _links: { self, git: gitUrl, html },
    };
  }

  async function resolve(c: Context<SandboxEnv>) {
    const repo = readableRepo(deps, c, DOC);
    const dir = git.dir(repo.owner, repo.name);
    const ref = c.req.query("ref") || repo.defaultBranch;
    const commit = await git.resolve(dir, ref);
    if (!commit) throw new GithubError(404, `No commit found for the ref ${ref}`, DOC);
    return { repo, dir, ref, commit };
  }

  async function content(c: Context<SandboxEnv>, rawPath: string) {
    const path = decodeURIComponent(rawPath).replace(/^\/+|\/+$/g, "");
    const { repo, dir, ref, commit } = await resolve(c);
    if (path === "") {
      const entries = await git.lsTree(dir, commit);
      return c.json(entries.map((e) => links(repo, ref, e, e.path)));
    }
    const entry = await git.entryAt(dir, commit, path);
    if (!entry) throw githubErrors.notFound(DOC);
    if (entry.type === "tree") {
      const children = await git.lsTree(dir, entry.sha);
      return c.json(children.map((e) => links(repo, ref, e, `${path}/${e.path}`)));
    }
    if (entry.type === "commit") return c.json({ ...links(repo, ref, entry, path), submodule_git_url: "" });
    const data = await git.readBlob(dir, entry.sha);
    const raw = rawMediaType(c.req.header("accept"));
    if (raw) return c.body(new Uint8Array(data), 200, { "content-type": `${raw}; charset=utf-8` });
    if (entry.mode === "120000") return c.json({ ...links(repo, ref, entry, path), target: data.toString("utf8") });
    return c.json({ ...links(repo, ref, entry, path), content: wrapBase64(data), encoding: "base64" });
  }

  return new Hono<SandboxEnv>()
    .get("/contents", (c) => content(c, ""))
    .get("/contents/", (c) => content(c, ""))
    .get("/contents/:path{.+}", (c) => content(c, c.req.param("path")));
}

/** GET /raw/{owner}/{repo}/{ref}/{path}: the file bytes behind `download_url`. */
export function rawRoutes(deps: SandboxDeps) {
  return new Hono<SandboxEnv>().get("/:owner/:repo/:ref/:path{.+}", async (c) => {
    const repo = readableRepo(deps, c, DOC);
    const dir = deps.git.dir(repo.owner, repo.name);
    const commit = await deps.git.resolve(dir, c.req.param("ref"));
    if (!commit) throw githubErrors.notFound(DOC);
    const entry = await deps.git.entryAt(dir, commit, c.req.param("path"));
    if (entry?.type !== "blob") throw githubErrors.notFound(DOC);
    const data = await deps.git.readBlob(dir, entry.sha);
    return c.body(new Uint8Array(data), 200, { "content-type": "text/plain; charset=utf-8" });
  });
}
