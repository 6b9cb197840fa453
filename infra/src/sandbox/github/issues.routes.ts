import { Hono } from "hono";
import { readableRepo } from "./access";
import type { SandboxDeps, SandboxEnv } from "./context";
import { DOCS_URL, githubErrors } from "./errors";
import { paginate } from "./http";
import { issue } from "./issues.payloads";
import type { IssueRecord } from "./state";

const LIST_DOC = `${DOCS_URL.issues}#list-repository-issues`;
const GET_DOC = `${DOCS_URL.issues}#get-an-issue`;

const SORTS: Record<string, (i: IssueRecord) => string | number> = {
  created: (i) => i.createdAt,
  updated: (i) => i.updatedAt,
  comments: (i) => i.comments,
};

export function issuesRoutes(deps: SandboxDeps) {
  const { store, urls } = deps;
  return new Hono<SandboxEnv>()
    .get("/issues", (c) => {
      const repo = readableRepo(deps, c, LIST_DOC);
      const q = (k: string) => c.req.query(k);
      const state = q("state") ?? "open";
      if (!["open", "closed", "all"].includes(state)) throw githubErrors.invalidField("Issue", "state", LIST_DOC);
      const sortKey = q("sort") ?? "created";
      const sortBy = SORTS[sortKey];
      if (!sortBy) throw githubErrors.invalidField("Issue", "sort", LIST_DOC);
      const direction = q("direction") ?? "desc";
      const wanted = (q("labels") ?? "").split(",").map((l) => l.trim().toLowerCase()).filter(Boolean);
      const since = q("since");
      const items = store.issuesOf(repo.id).filter((i) => {
        if (state !== "all" && i.state !== state) return false;
        if (wanted.length && !wanted.every((w) => i.labels.some((l) => l.toLowerCase() === w))) return false;
        if (since && i.updatedAt < since) return false;
        const creator = q("creator");
        if (creator && i.user.toLowerCase() !== creator.toLowerCase()) return false;
        const assignee = q("assignee");
        if (assignee === "none" && i.assignees.length > 0) return false;
        if (assignee && assignee !== "*" && assignee !== "none" && !i.assignees.some((a) => a.toLowerCase() === assignee.toLowerCase())) return false;
        return true;
      });
      items.sort((a, b) => {
        const x = sortBy(a);
        const y = sortBy(b);
        const cmp = x < y ? -1 : x > y ? 1 : a.number - b.number;
        return direction === "asc" ? cmp : -cmp;
      });
      const page = paginate(c, items, `${urls.api}/repositories/${repo.id}/issues`);
      return c.json(page.items.map((i) => issue(i, repo, store, urls)));
    })
    .get("/issues/:number{[0-9]+}", (c) => {
      const repo = readableRepo(deps, c, GET_DOC);
      const found = store.issue(repo.id, Number(c.req.param("number")));
      if (!found) throw githubErrors.notFound(GET_DOC);
      return c.json(issue(found, repo, store, urls));
    });
}
