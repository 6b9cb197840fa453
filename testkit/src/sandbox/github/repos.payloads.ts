import { roleOf } from "./orgs";
import { REPO_ROLES, type RepoRecord, type StateStore } from "./state";
import { nodeId, type Urls } from "./urls";
import { simpleOrg, simpleUser } from "./users.payloads";

export interface Permissions {
  admin: boolean;
  maintain: boolean;
  push: boolean;
  triage: boolean;
  pull: boolean;
}

/** The viewer's effective permissions; every role includes the weaker ones, and anyone may pull a public repository. */
export function permissionsFor(store: StateStore, repo: RepoRecord, viewer: string | null): Permissions {
  const role = roleOf(store, repo, viewer);
  const at = (r: (typeof REPO_ROLES)[number]) => role !== null && REPO_ROLES.indexOf(role) >= REPO_ROLES.indexOf(r);
  return {
    admin: at("admin"),
    maintain: at("maintain"),
    push: at("push"),
    triage: at("triage"),
    pull: at("pull") || !repo.private,
  };
}

function ownerOf(repo: RepoRecord, store: StateStore, urls: Urls) {
  const user = store.user(repo.owner);
  if (user) return simpleUser(user, urls);
  const org = store.org(repo.owner);
  if (org) return simpleOrg(org, urls);
  throw new Error(`sandbox state: repository ${repo.owner}/${repo.name} has no owner record`);
}

/** The `repository` object used in lists and nested payloads (no parent/source). */
export function repository(repo: RepoRecord, store: StateStore, urls: Urls, viewer: string | null) {
  const full = `${repo.owner}/${repo.name}`;
  const u = `${urls.api}/repos/${full}`;
  const html = `${urls.html}/${full}`;
  const openIssues = store.issuesOf(repo.id).filter((i) => i.state === "open").length;
  const forks = store.forksOf(repo.id).length;
  return {
    id: repo.id,
    node_id: nodeId("Repository", repo.id),
    name: repo.name,
    full_name: full,
    private: repo.private,
    owner: ownerOf(repo, store, urls),
    html_url: html,
    description: repo.description,
    fork: repo.parentId !== null,
    url: u,
    forks_url: `${u}/forks`,
    keys_url: `${u}/keys{/key_id}`,
    collaborators_url: `${u}/collaborators{/collaborator}`,
    teams_url: `${u}/teams`,
    hooks_url: `${u}/hooks`,
    issue_events_url: `${u}/issues/events{/number}`,
    events_url: `${u}/events`,
    assignees_url: `${u}/assignees{/user}`,
    branches_url: `${u}/branches{/branch}`,
    tags_url: `${u}/tags`,
    blobs_url: `${u}/git/blobs{/sha}`,
    git_tags_url: `${u}/git/tags{/sha}`,
    git_refs_url: `${u}/git/refs{/sha}`,
    trees_url: `${u}/git/trees{/sha}`,
    statuses_url: `${u}/statuses/{sha}`,
    languages_url: `${u}/languages`,
    stargazers_url: `${u}/stargazers`,
    contributors_url: `${u}/contributors`,
    subscribers_url: `${u}/subscribers`,
    subscription_url: `${u}/subscription`,
    commits_url: `${u}/commits{/sha}`,
    git_commits_url: `${u}/git/commits{/sha}`,
    comments_url: `${u}/comments{/number}`,
    issue_comment_url: `${u}/issues/comments{/number}`,
    contents_url: `${u}/contents/{+path}`,
    compare_url: `${u}/compare/{base}...{head}`,
    merges_url: `${u}/merges`,
    archive_url: `${u}/{archive_format}{/ref}`,
    downloads_url: `${u}/downloads`,
    issues_url: `${u}/issues{/number}`,
    pulls_url: `${u}/pulls{/number}`,
    milestones_url: `${u}/milestones{/number}`,
    notifications_url: `${u}/notifications{?since,all,participating}`,
    labels_url: `${u}/labels{/name}`,
    releases_url: `${u}/releases{/id}`,
    deployments_url: `${u}/deployments`,
    created_at: repo.createdAt,
    updated_at: repo.updatedAt,
    pushed_at: repo.pushedAt,
    git_url: `${html.replace(/^https?:/, "git:")}.git`,
    ssh_url: `git@${new URL(urls.html).host}:${full}.git`,
    clone_url: `${html}.git`,
    svn_url: html,
    homepage: repo.homepage,
    size: 0,
    stargazers_count: 0,
    watchers_count: 0,
    language: repo.language,
    has_issues: repo.parentId === null,
    has_projects: true,
    has_downloads: true,
    has_wiki: true,
    has_pages: false,
    has_discussions: false,
    forks_count: forks,
    mirror_url: null,
    archived: false,
    disabled: false,
    open_issues_count: openIssues,
    license: null,
    allow_forking: true,
    is_template: false,
    web_commit_signoff_required: false,
    topics: repo.topics,
    visibility: repo.private ? "private" : "public",
    forks,
    open_issues: openIssues,
    watchers: 0,
    default_branch: repo.defaultBranch,
    // A GitHub App's bot (an installation token) gets no user permissions block: the token's own
    // permissions decide what it may do.
    ...(viewer?.endsWith("[bot]") ? {} : { permissions: permissionsFor(store, repo, viewer) }),
  };
}

/** GET /repos/{owner}/{repo}: the full object, with `parent` and `source` for forks. */
export function fullRepository(repo: RepoRecord, store: StateStore, urls: Urls, viewer: string | null) {
  const base = repository(repo, store, urls, viewer);
  const parent = store.parentOf(repo);
  const network = store.sourceOf(repo);
  const countNetwork = (root: RepoRecord): number =>
    store.forksOf(root.id).reduce((n, f) => n + 1 + countNetwork(f), 0);
  return {
    ...base,
    allow_squash_merge: true,
    allow_merge_commit: true,
    allow_rebase_merge: true,
    allow_auto_merge: false,
    delete_branch_on_merge: false,
    allow_update_branch: false,
    use_squash_pr_title_as_default: false,
    squash_merge_commit_title: "COMMIT_OR_PR_TITLE",
    squash_merge_commit_message: "COMMIT_MESSAGES",
    merge_commit_title: "MERGE_MESSAGE",
    merge_commit_message: "PR_TITLE",
    network_count: countNetwork(network),
    subscribers_count: 1,
    ...(parent
      ? {
          parent: repository(parent, store, urls, viewer),
          source: repository(network, store, urls, viewer),
        }
      : {}),
  };
}
