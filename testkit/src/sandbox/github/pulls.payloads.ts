import { authorAssociation, label } from "./issues.payloads";
import { repository } from "./repos.payloads";
import type { IssueRecord, LabelRecord, PullFields, RepoRecord, StateStore } from "./state";
import { nodeId, type Urls } from "./urls";
import { simpleOrg, simpleUser } from "./users.payloads";

export interface PullStats {
  commits: number;
  additions: number;
  deletions: number;
  changedFiles: number;
  mergeable: boolean | null;
}

export type PullIssue = IssueRecord & { pull: PullFields };

export const isPull = (i: IssueRecord): i is PullIssue => i.pull !== null;

function branch(
  repo: RepoRecord | undefined,
  ref: string,
  sha: string,
  store: StateStore,
  urls: Urls,
  viewer: string | null,
) {
  // The side's account is the repository's owner, a user or an organisation, as GitHub shows it.
  const user = repo ? store.user(repo.owner) : undefined;
  const org = repo && !user ? store.org(repo.owner) : undefined;
  return {
    label: `${repo?.owner ?? "unknown"}:${ref}`,
    ref,
    sha,
    user: user ? simpleUser(user, urls) : org ? simpleOrg(org, urls) : null,
    repo: repo ? repository(repo, store, urls, viewer) : null,
  };
}

/** The list form ("pull-request-simple"). */
export function pullSimple(i: PullIssue, repo: RepoRecord, store: StateStore, urls: Urls, viewer: string | null) {
  const user = store.user(i.user);
  if (!user) throw new Error(`sandbox state: unknown user ${i.user}`);
  const repoUrl = `${urls.api}/repos/${repo.owner}/${repo.name}`;
  const u = `${repoUrl}/pulls/${i.number}`;
  const html = `${urls.html}/${repo.owner}/${repo.name}/pull/${i.number}`;
  const issueUrl = `${repoUrl}/issues/${i.number}`;
  const statuses = `${repoUrl}/statuses/${i.pull.headSha}`;
  const assignees = i.assignees.flatMap((a) => {
    const found = store.user(a);
    return found ? [simpleUser(found, urls)] : [];
  });
  return {
    url: u,
    id: i.pullId ?? i.id,
    node_id: nodeId("PullRequest", i.pullId ?? i.id),
    html_url: html,
    diff_url: `${html}.diff`,
    patch_url: `${html}.patch`,
    issue_url: issueUrl,
    number: i.number,
    state: i.state,
    locked: i.locked,
    title: i.title,
    user: simpleUser(user, urls),
    body: i.body,
    created_at: i.createdAt,
    updated_at: i.updatedAt,
    closed_at: i.closedAt,
    merged_at: i.pull.mergedAt,
    merge_commit_sha: i.pull.mergeCommitSha,
    assignee: assignees[0] ?? null,
    assignees,
    requested_reviewers: [],
    requested_teams: [],
    labels: i.labels
      .map((name) => repo.labels.find((l) => l.name === name))
      .filter((l): l is LabelRecord => l !== undefined)
      .map((l) => label(l, repo, urls)),
    milestone: null,
    draft: i.pull.draft,
    commits_url: `${u}/commits`,
    review_comments_url: `${u}/comments`,
    review_comment_url: `${repoUrl}/pulls/comments{/number}`,
    comments_url: `${issueUrl}/comments`,
    statuses_url: statuses,
    head: branch(store.repoById(i.pull.headRepoId), i.pull.headRef, i.pull.headSha, store, urls, viewer),
    base: branch(repo, i.pull.baseRef, i.pull.baseSha, store, urls, viewer),
    _links: {
      self: { href: u },
      html: { href: html },
      issue: { href: issueUrl },
      comments: { href: `${issueUrl}/comments` },
      review_comments: { href: `${u}/comments` },
      review_comment: { href: `${repoUrl}/pulls/comments{/number}` },
      commits: { href: `${u}/commits` },
      statuses: { href: statuses },
    },
    author_association: authorAssociation(store, repo, i.user),
    auto_merge: null,
    active_lock_reason: null,
  };
}

/** The single-object form ("pull-request"), with merge state and diff counts. */
export function pullFull(
  i: PullIssue,
  repo: RepoRecord,
  store: StateStore,
  urls: Urls,
  viewer: string | null,
  stats: PullStats,
) {
  const mergedBy = i.pull.mergedBy ? store.user(i.pull.mergedBy) : undefined;
  const open = i.state === "open";
  return {
    ...pullSimple(i, repo, store, urls, viewer),
    merged: i.pull.merged,
    mergeable: open ? stats.mergeable : null,
    rebaseable: open ? stats.mergeable : null,
    mergeable_state: !open ? "unknown" : stats.mergeable === false ? "dirty" : "clean",
    merged_by: mergedBy ? simpleUser(mergedBy, urls) : null,
    comments: i.comments,
    review_comments: 0,
    maintainer_can_modify: i.pull.maintainerCanModify,
    commits: stats.commits,
    additions: stats.additions,
    deletions: stats.deletions,
    changed_files: stats.changedFiles,
  };
}
