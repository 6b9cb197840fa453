import crypto from "node:crypto";
import { Hono } from "hono";
import { readableRepo } from "./access";
import type { SandboxDeps, SandboxEnv } from "./context";
import { githubErrors } from "./errors";

const DOC = "https://docs.github.com/rest/repos/contents#download-a-repository-archive-tar";
const TICKET_TTL_MS = 5 * 60 * 1000;

/** Short-lived codeload tickets, as GitHub puts a `token=` in the redirect for a private repository. */
const tickets = new Map<string, { owner: string; repo: string; commit: string; until: number }>();

/**
 * GET /repos/{owner}/{repo}/tarball/{ref}: GitHub answers 302 to codeload, which serves a gzip tar
 * of the tree whose every path sits under `<owner>-<repo>-<shortsha>/` (`git archive` writes it).
 */
export function archiveRoutes(deps: SandboxDeps) {
  return new Hono<SandboxEnv>().get("/tarball/:ref{.*}", async (c) => {
    const repo = readableRepo(deps, c, DOC);
    const dir = deps.git.dir(repo.owner, repo.name);
    const ref = c.req.param("ref") || repo.defaultBranch;
    const commit = await deps.git.resolve(dir, ref);
    if (!commit) throw githubErrors.notFound(DOC);
    const ticket = crypto.randomBytes(20).toString("hex");
    tickets.set(ticket, { owner: repo.owner, repo: repo.name, commit, until: Date.now() + TICKET_TTL_MS });
    for (const [k, t] of tickets) if (t.until < Date.now()) tickets.delete(k);
    const at = `${deps.urls.api}/_codeload/${repo.owner}/${repo.name}/legacy.tar.gz/${encodeURIComponent(ref)}?token=${ticket}`;
    return c.body(null, 302, { location: at });
  });
}

/** The codeload host: not the REST API (not counted against the rate limit), authorised by the ticket only. */
export function codeloadRoutes(deps: SandboxDeps) {
  return new Hono<SandboxEnv>().get("/:owner/:repo/legacy.tar.gz/:ref{.*}", async (c) => {
    const t = tickets.get(c.req.query("token") ?? "");
    if (!t || t.until < Date.now() || t.owner !== c.req.param("owner") || t.repo !== c.req.param("repo"))
      return c.text("404: Not Found", 404);
    const dir = deps.git.dir(t.owner, t.repo);
    const prefix = `${t.owner}-${t.repo}-${t.commit.slice(0, 7)}/`;
    const tgz = await deps.git.run(dir, ["archive", "--format=tar.gz", `--prefix=${prefix}`, t.commit]);
    return c.body(new Uint8Array(tgz), 200, {
      "content-type": "application/x-gzip",
      "content-disposition": `attachment; filename=${prefix.slice(0, -1)}.tar.gz`,
    });
  });
}
