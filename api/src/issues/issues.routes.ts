import { Hono } from "hono";
import { ISSUE_PAGE_MAX, IssueListQuery } from "@fixloop/contract";
import { issues, isUuid } from "@fixloop/db";
import type { AppEnv } from "../deps";
import { requireUser } from "../auth/auth.middleware";
import { errors } from "../http/errors";
import { validate } from "../http/validate";
import { issueView } from "./issues.views";
import { baseRepoOf, listBranches } from "./issues.branches";
import { decodeCursor, encodeCursor } from "./issues.cursor";

export const issuesRoutes = new Hono<AppEnv>()
  /** One page of the user's issues, newest first; the first page also counts each tab. */
  .get("/issues", requireUser, validate("query", IssueListQuery), async (c) => {
    const q = c.req.valid("query");
    const after = q.cursor === undefined ? undefined : decodeCursor(q.cursor);
    const { db } = c.var.deps;
    const [page, counts] = await Promise.all([
      issues.listOwnedPage(db, c.var.user.id, { ...q, after, limit: q.limit ?? ISSUE_PAGE_MAX }),
      after ? null : issues.countOwned(db, c.var.user.id),
    ]);
    return c.json({
      issues: page.issues.map(issueView),
      nextCursor: page.next && encodeCursor(page.next),
      counts,
    });
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
