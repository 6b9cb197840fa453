import { Hono } from "hono";
import { readableRepo, requireIntegrationWrite, requireUser, writableRepo } from "./access";
import type { SandboxDeps, SandboxEnv } from "./context";
import { githubErrors } from "./errors";
import { paginate, readJson, str } from "./http";
import { authorAssociation, label } from "./issues.payloads";
import type { IssueCommentRecord, RepoRecord, StateStore } from "./state";
import { nodeId, type Urls } from "./urls";
import { simpleUser } from "./users.payloads";
import { addIssueLabels, labelsOf } from "./labels.service";

const COMMENTS_DOC = "https://docs.github.com/rest/issues/comments";
const LABELS_DOC = "https://docs.github.com/rest/issues/labels#add-labels-to-an-issue";

function issueComment(cm: IssueCommentRecord, repo: RepoRecord, store: StateStore, urls: Urls) {
  const user = store.user(cm.user);
  if (!user) throw new Error(`sandbox state: unknown user ${cm.user}`);
  const repoUrl = `${urls.api}/repos/${repo.owner}/${repo.name}`;
  return {
    id: cm.id,
    node_id: nodeId("IssueComment", cm.id),
    url: `${repoUrl}/issues/comments/${cm.id}`,
    html_url: `${urls.html}/${repo.owner}/${repo.name}/issues/${cm.issueNumber}#issuecomment-${cm.id}`,
    body: cm.body,
    user: simpleUser(user, urls),
    created_at: cm.createdAt,
    updated_at: cm.updatedAt,
    issue_url: `${repoUrl}/issues/${cm.issueNumber}`,
    author_association: authorAssociation(store, repo, cm.user),
  };
}

/** `labels` as GitHub takes it: `["a"]`, `{ labels: ["a"] }` or `{ labels: [{ name: "a" }] }`. */
function labelNamesOf(text: string): string[] | null {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return null;
  }
  const list: unknown = Array.isArray(value) ? value : (value as { labels?: unknown } | null)?.labels;
  if (!Array.isArray(list)) return null;
  const names = list.map((l) => (typeof l === "string" ? l : str((l as { name?: unknown } | null)?.name)));
  return names.every((n): n is string => typeof n === "string" && n.trim() !== "") ? names.map((n) => n.trim()) : null;
}

/** Issue comments (list, create) and adding labels to an issue, as a test user does on GitHub. */
export function issueCommentsRoutes(deps: SandboxDeps) {
  const { store, urls } = deps;
  const target = (repo: RepoRecord, n: string) => {
    const issue = store.issue(repo.id, Number(n));
    if (!issue) throw githubErrors.notFound(COMMENTS_DOC);
    return issue;
  };
  return new Hono<SandboxEnv>()
    .get("/issues/:number{[0-9]+}/comments", (c) => {
      const repo = readableRepo(deps, c, COMMENTS_DOC);
      const issue = target(repo, c.req.param("number"));
      const all = (store.data.issueComments ?? []).filter(
        (cm) => cm.repoId === repo.id && cm.issueNumber === issue.number,
      );
      const page = paginate(c, all, `${urls.api}/repositories/${repo.id}/issues/${issue.number}/comments`);
      return c.json(page.items.map((cm) => issueComment(cm, repo, store, urls)));
    })
    .post("/issues/:number{[0-9]+}/comments", async (c) => {
      const token = requireUser(c, COMMENTS_DOC);
      const repo = readableRepo(deps, c, COMMENTS_DOC);
      requireIntegrationWrite(token, repo, "issues", COMMENTS_DOC);
      const issue = target(repo, c.req.param("number"));
      const body = str((await readJson(c)).body);
      if (!body)
        throw githubErrors.validation(
          [{ resource: "IssueComment", code: "missing_field", field: "body" }],
          COMMENTS_DOC,
        );
      const now = new Date().toISOString();
      const cm = store.mutate((s) => {
        const record = {
          id: store.nextId(),
          repoId: repo.id,
          issueNumber: issue.number,
          user: token.login,
          body,
          createdAt: now,
          updatedAt: now,
        };
        s.issueComments = [...(s.issueComments ?? []), record];
        issue.comments += 1;
        issue.updatedAt = now;
        return record;
      });
      return c.json(issueComment(cm, repo, store, urls), 201);
    })
    .post("/issues/:number{[0-9]+}/labels", async (c) => {
      const { repo } = writableRepo(deps, c, LABELS_DOC, "issues");
      const issue = target(repo, c.req.param("number"));
      const names = labelNamesOf(await c.req.text());
      if (!names)
        throw githubErrors.unprocessable(
          'Invalid request.\n\nNo subschema in "anyOf" matched: labels must be an array of label names.',
          LABELS_DOC,
        );
      addIssueLabels(deps, repo, issue, names, c.get("auth")?.login ?? repo.owner);
      const labels = labelsOf(repo, issue);
      return c.json(labels.map((l) => label(l, repo, urls)));
    });
}
