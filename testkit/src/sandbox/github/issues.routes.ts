import { type Context, Hono } from "hono";
import { canRead, readableRepo } from "./access";
import type { SandboxDeps, SandboxEnv } from "./context";
import { DOCS_URL, GithubError, githubErrors } from "./errors";
import { movedPermanently, paginate } from "./http";
import { crossReferenced, issue } from "./issues.payloads";
import type { IssueRecord, RepoRecord } from "./state";

const LIST_DOC = `${DOCS_URL.issues}#list-repository-issues`;
const GET_DOC = `${DOCS_URL.issues}#get-an-issue`;
const TIMELINE_DOC = "https://docs.github.com/rest/issues/timeline#list-timeline-events-for-an-issue";

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** Whether `text`, written in `from`, references issue `n` of `to` the way GitHub links it. */
function references(text: string, from: RepoRecord, to: RepoRecord, n: number): boolean {
  const full = `${escape(to.owner)}/${escape(to.name)}`;
  const same = from.id === to.id ? `(?:^|[^\\w/])#${n}(?!\\d)|` : "";
  return new RegExp(
    `${same}(?:^|[^\\w/])${full}#${n}(?!\\d)|github\\.com/${full}/(?:issues|pull)/${n}(?!\\d)`,
    "i",
  ).test(text);
}

const SORTS: Record<string, (i: IssueRecord) => string | number> = {
  created: (i) => i.createdAt,
  updated: (i) => i.updatedAt,
  comments: (i) => i.comments,
};

export function issuesRoutes(deps: SandboxDeps) {
  const { store, urls } = deps;
  return (
    new Hono<SandboxEnv>()
      .get("/issues", (c) => {
        const repo = readableRepo(deps, c, LIST_DOC);
        const q = (k: string) => c.req.query(k);
        const state = q("state") ?? "open";
        if (!["open", "closed", "all"].includes(state)) throw githubErrors.invalidField("Issue", "state", LIST_DOC);
        const sortKey = q("sort") ?? "created";
        const sortBy = SORTS[sortKey];
        if (!sortBy) throw githubErrors.invalidField("Issue", "sort", LIST_DOC);
        const direction = q("direction") ?? "desc";
        const wanted = (q("labels") ?? "")
          .split(",")
          .map((l) => l.trim().toLowerCase())
          .filter(Boolean);
        const since = q("since");
        const items = store.issuesOf(repo.id).filter((i) => {
          if (state !== "all" && i.state !== state) return false;
          if (wanted.length && !wanted.every((w) => i.labels.some((l) => l.toLowerCase() === w))) return false;
          if (since && i.updatedAt < since) return false;
          const creator = q("creator");
          if (creator && i.user.toLowerCase() !== creator.toLowerCase()) return false;
          const assignee = q("assignee");
          if (assignee === "none" && i.assignees.length > 0) return false;
          if (
            assignee &&
            assignee !== "*" &&
            assignee !== "none" &&
            !i.assignees.some((a) => a.toLowerCase() === assignee.toLowerCase())
          )
            return false;
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
      // Only cross-references are modelled: pull requests whose title or body mention the issue.
      .get("/issues/:number{[0-9]+}/timeline", (c) => {
        const repo = readableRepo(deps, c, TIMELINE_DOC);
        const target = store.issue(repo.id, Number(c.req.param("number")));
        if (!target) throw githubErrors.notFound(TIMELINE_DOC);
        const events = store.data.issues
          .flatMap((i) => {
            const from = store.repoById(i.repoId);
            if (!i.pull || !from || from.private || i.id === target.id) return [];
            return references(`${i.title}\n${i.body ?? ""}`, from, repo, target.number) ? [{ i, from }] : [];
          })
          .sort((a, b) => (a.i.createdAt < b.i.createdAt ? -1 : a.i.createdAt > b.i.createdAt ? 1 : a.i.id - b.i.id));
        const page = paginate(c, events, `${urls.api}/repositories/${repo.id}/issues/${target.number}/timeline`);
        return c.json(page.items.map(({ i, from }) => crossReferenced(i, from, store, urls)));
      })
      .get("/issues/:number{[0-9]+}", (c) => getIssue(deps, c, readableRepo(deps, c, GET_DOC)))
  );
}

/**
 * One issue, as GitHub answers it: 410 once deleted, 301 to its new place (by repository id, as
 * GitHub's Location does) once transferred.
 */
function getIssue(deps: SandboxDeps, c: Context<SandboxEnv>, repo: RepoRecord) {
  const { store, urls } = deps;
  const number = Number(c.req.param("number"));
  const found = store.issue(repo.id, number);
  if (found) return c.json(issue(found, repo, store, urls));
  const gone = store.goneIssue(repo.id, number);
  if (!gone) throw githubErrors.notFound(GET_DOC);
  if (!gone.movedTo) throw new GithubError(410, "This issue was deleted", GET_DOC);
  const location = `${urls.api}/repositories/${gone.movedTo.repoId}/issues/${gone.movedTo.number}`;
  return movedPermanently(c, location);
}

/** `/repositories/{id}/issues/{number}`: where GitHub's redirects point (a repository by its id). */
export function issuesByIdRoutes(deps: SandboxDeps) {
  return new Hono<SandboxEnv>().get("/issues/:number{[0-9]+}", (c) => {
    const repo = deps.store.repoById(Number(c.req.param("id")));
    c.set("acceptedScopes", "repo");
    if (!repo || !canRead(deps.store, repo, c.get("auth"))) throw githubErrors.notFound(GET_DOC);
    return getIssue(deps, c, repo);
  });
}
