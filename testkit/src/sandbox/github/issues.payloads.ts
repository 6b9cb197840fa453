import type { IssueRecord, LabelRecord, RepoRecord, StateStore } from "./state";
import { nodeId, type Urls } from "./urls";
import { simpleUser } from "./users.payloads";

export function label(l: LabelRecord, repo: RepoRecord, urls: Urls) {
  return {
    id: l.id,
    node_id: nodeId("Label", l.id),
    url: `${urls.api}/repos/${repo.owner}/${repo.name}/labels/${encodeURIComponent(l.name)}`,
    name: l.name,
    color: l.color,
    default: l.default,
    description: l.description,
  };
}

function userOrGhost(store: StateStore, login: string, urls: Urls) {
  const user = store.user(login);
  if (!user) throw new Error(`sandbox state: unknown user ${login}`);
  return simpleUser(user, urls);
}

export function authorAssociation(store: StateStore, repo: RepoRecord, login: string): string {
  if (login.toLowerCase() === repo.owner.toLowerCase()) return "OWNER";
  if (store.org(repo.owner)?.members.some((m) => m.login.toLowerCase() === login.toLowerCase())) return "MEMBER";
  if (repo.collaborators.some((c) => c.toLowerCase() === login.toLowerCase())) return "COLLABORATOR";
  return "NONE";
}

export function issue(i: IssueRecord, repo: RepoRecord, store: StateStore, urls: Urls) {
  const repoUrl = `${urls.api}/repos/${repo.owner}/${repo.name}`;
  const u = `${repoUrl}/issues/${i.number}`;
  const htmlRepo = `${urls.html}/${repo.owner}/${repo.name}`;
  const assignees = i.assignees.map((a) => userOrGhost(store, a, urls));
  const labels = i.labels
    .map((name) => repo.labels.find((l) => l.name === name))
    .filter((l): l is LabelRecord => l !== undefined)
    .map((l) => label(l, repo, urls));
  return {
    url: u,
    repository_url: repoUrl,
    labels_url: `${u}/labels{/name}`,
    comments_url: `${u}/comments`,
    events_url: `${u}/events`,
    html_url: `${htmlRepo}/${i.pull ? "pull" : "issues"}/${i.number}`,
    id: i.id,
    node_id: nodeId(i.pull ? "PullRequest" : "Issue", i.id),
    number: i.number,
    title: i.title,
    user: userOrGhost(store, i.user, urls),
    labels,
    state: i.state,
    locked: i.locked,
    assignee: assignees[0] ?? null,
    assignees,
    milestone: null,
    comments: i.comments,
    created_at: i.createdAt,
    updated_at: i.updatedAt,
    closed_at: i.closedAt,
    author_association: authorAssociation(store, repo, i.user),
    type: null,
    active_lock_reason: null,
    sub_issues_summary: { total: 0, completed: 0, percent_completed: 0 },
    issue_dependencies_summary: { blocked_by: 0, total_blocked_by: 0, blocking: 0, total_blocking: 0 },
    ...(i.pull
      ? {
          draft: i.pull.draft,
          pull_request: {
            url: `${repoUrl}/pulls/${i.number}`,
            html_url: `${htmlRepo}/pull/${i.number}`,
            diff_url: `${htmlRepo}/pull/${i.number}.diff`,
            patch_url: `${htmlRepo}/pull/${i.number}.patch`,
            merged_at: i.pull.mergedAt,
          },
        }
      : {}),
    body: i.body,
    closed_by: i.closedBy ? userOrGhost(store, i.closedBy, urls) : null,
    reactions: reactions(u),
    timeline_url: `${u}/timeline`,
    performed_via_github_app: null,
    state_reason: i.stateReason,
  };
}

/** A timeline `cross-referenced` event: the pull request `source` mentions the issue. */
export function crossReferenced(source: IssueRecord, repo: RepoRecord, store: StateStore, urls: Urls) {
  return {
    event: "cross-referenced",
    actor: userOrGhost(store, source.user, urls),
    created_at: source.createdAt,
    updated_at: source.createdAt,
    source: { type: "issue", issue: issue(source, repo, store, urls) },
  };
}

/** The reaction rollup of the issue or comment at `url` (the stand-in has no reactions). */
export function reactions(url: string) {
  return {
    url: `${url}/reactions`,
    total_count: 0,
    "+1": 0,
    "-1": 0,
    laugh: 0,
    hooray: 0,
    confused: 0,
    heart: 0,
    rocket: 0,
    eyes: 0,
  };
}
