import { Hono } from "hono";
import { z } from "zod";
import { domain } from "@fixloop/contract";
import { issues, isUuid } from "@fixloop/db";
import type { AppEnv } from "../deps";
import { requireUser } from "../auth/auth.middleware";
import { errors } from "../http/errors";
import { validate } from "../http/validate";
import { issueView } from "./issues.views";
import { baseRepoOf, listBranches } from "./issues.branches";

const ListQuery = z.object({ status: z.enum(domain.ISSUE_STATUSES).optional() });

export const issuesRoutes = new Hono<AppEnv>()
  .get("/issues", requireUser, validate("query", ListQuery), async (c) => {
    const rows = await issues.listOwned(c.var.deps.db, c.var.user.id, c.req.valid("query").status);
    return c.json({ issues: rows.map(issueView) });
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
