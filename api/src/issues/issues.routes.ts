import { Hono, type TypedResponse } from "hono";
import type { JSONParsed } from "hono/utils/types";
import { IssueListQuery } from "@fixloop/contract";
import { issues, isUuid } from "@fixloop/db";
import type { AppEnv } from "../deps";
import { requireUser } from "../auth/auth.middleware";
import { errors } from "../http/errors";
import { validate } from "../http/validate";
import { issueView } from "./issues.views";
import { baseRepoOf, listBranches } from "./issues.branches";
import { issueListPage, matchesEtag, type IssueList } from "./issues.list-cache";

export const issuesRoutes = new Hono<AppEnv>()
  /**
   * One page of the user's issues, newest first; the first page also counts each tab. Sent with a
   * strong ETag: a browser revalidating an unchanged page gets 304 without the body.
   */
  .get("/issues", requireUser, validate("query", IssueListQuery), async (c) => {
    const page = await issueListPage(c.get("deps").db, c.get("user").id, c.req.valid("query"));
    const headers = { ETag: page.etag, "Cache-Control": "private, no-cache" };
    // A Response with a plain header object, not c.body: Hono turns more than one header into a
    // fetch Headers, which @hono/node-server then walks again; this list is the dashboard's hottest read.
    const res = matchesEtag(c.req.header("if-none-match"), page.etag)
      ? new Response(null, { status: 304, headers })
      : new Response(page.body, { status: 200, headers: { ...headers, "Content-Type": "application/json" } });
    // The JSON was built once for this version of the list: typed as c.json would type it (a
    // browser's fetch turns the 304 of its own revalidation into the 200 it kept).
    return res as unknown as Response & TypedResponse<JSONParsed<IssueList>, 200, "json">;
  })
  .get("/issues/:id", requireUser, async (c) => {
    const id = c.req.param("id");
    const row = isUuid(id) ? await issues.findOwned(c.var.deps.db, c.var.user.id, id) : undefined;
    if (!row) throw errors.notFound("Issue");
    return c.json({ issue: issueView(row) });
  })
  /** Branches a solution can be based on: the repository the pull request goes to (an imported issue's upstream), default first. */
  .get("/issues/:id/branches", requireUser, async (c) => {
    const id = c.req.param("id");
    const row = isUuid(id) ? await issues.findOwned(c.var.deps.db, c.var.user.id, id) : undefined;
    if (!row) throw errors.notFound("Issue");
    const repository = baseRepoOf(row);
    return c.json({ repository, ...(await listBranches(c.var.deps, c.var.user.id, repository)) });
  });
