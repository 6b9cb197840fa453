import { Hono } from "hono";
import { z } from "zod";
import { domain } from "@fixloop/contract";
import type { AppEnv } from "../deps";
import { requireUser } from "../auth/auth.middleware";
import { errors } from "../http/errors";
import { validate } from "../http/validate";
import { findIssue, issueView, listIssues } from "./issues.repository";

const ListQuery = z.object({ status: z.enum(domain.ISSUE_STATUSES).optional() });
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export const issuesRoutes = new Hono<AppEnv>()
  .get("/issues", requireUser, validate("query", ListQuery), async (c) => {
    const rows = await listIssues(c.var.deps.db, c.var.user.id, c.req.valid("query").status);
    return c.json({ issues: rows.map(issueView) });
  })
  .get("/issues/:id", requireUser, async (c) => {
    const id = c.req.param("id");
    const row = UUID.test(id) ? await findIssue(c.var.deps.db, c.var.user.id, id) : undefined;
    if (!row) throw errors.notFound("Issue");
    return c.json({ issue: issueView(row) });
  });
