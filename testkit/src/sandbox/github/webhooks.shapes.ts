import type { SandboxDeps } from "./context";
import { issue } from "./issues.payloads";
import type { pullSimple } from "./pulls.payloads";
import { repository } from "./repos.payloads";
import type { IssueRecord, RepoRecord } from "./state";
import { avatarUrl, nodeId } from "./urls";
import { simpleUser } from "./users.payloads";

export type PullIssue = IssueRecord & { pull: NonNullable<IssueRecord["pull"]> };

/**
 * The REST objects as webhook payloads carry them, in the shapes of GitHub's published webhook
 * schemas (not the REST ones); each event's payloads (webhooks.payloads.*.ts) are built from these.
 */
export function hookShapes(deps: SandboxDeps) {
  const { store, urls } = deps;
  const user = (login: string) => {
    const u = store.user(login);
    if (!u) throw new Error(`sandbox state: unknown user ${login}`);
    const { user_view_type: _view, ...rest } = simpleUser(u, urls);
    return rest;
  };
  const repo = (r: RepoRecord) => {
    const {
      permissions: _p,
      has_discussions: _d,
      disabled: _x,
      allow_forking: _a,
      ...rest
    } = repository(r, store, urls, null);
    const { user_view_type: _v, ...owner } = rest.owner;
    return { ...rest, owner, custom_properties: {} };
  };
  // GitHub adds `organization` to every delivery about a repository an organisation owns.
  const org = (r: RepoRecord) => {
    const o = store.org(r.owner);
    if (!o) return {};
    const u = `${urls.api}/orgs/${o.login}`;
    return {
      organization: {
        login: o.login,
        id: o.id,
        node_id: nodeId("Organization", o.id),
        url: u,
        repos_url: `${u}/repos`,
        events_url: `${u}/events`,
        hooks_url: `${u}/hooks`,
        issues_url: `${u}/issues`,
        members_url: `${u}/members{/member}`,
        public_members_url: `${u}/public_members{/member}`,
        avatar_url: avatarUrl(urls, o.id),
        description: null,
      },
    };
  };
  const hookPull = <T extends ReturnType<typeof pullSimple>>(p: T) => {
    const side = (b: T["head"]) => ({
      ...b,
      user: b.user ? stripUser(b.user) : null,
      repo: b.repo ? fixRepo(b.repo) : null,
    });
    return {
      ...p,
      user: stripUser(p.user),
      assignee: p.assignee ? stripUser(p.assignee) : null,
      assignees: p.assignees.map(stripUser),
      head: side(p.head),
      base: side(p.base),
      ...("merged_by" in p && p.merged_by ? { merged_by: stripUser(p.merged_by as { user_view_type?: string }) } : {}),
    };
  };
  const stripUser = <U extends { user_view_type?: string }>(u: U) => {
    const { user_view_type: _v, ...rest } = u;
    return rest;
  };
  const fixRepo = (r: NonNullable<ReturnType<typeof pullSimple>["head"]["repo"]>) => {
    const found = store.repoById(r.id);
    return found ? repo(found) : r;
  };
  // The webhook's issue is the REST one without the fields its published schema does not have.
  const hookIssue = (r: RepoRecord, i: IssueRecord) => {
    const {
      user: author,
      assignee,
      assignees,
      closed_by: _closedBy,
      type: _type,
      sub_issues_summary: _sub,
      issue_dependencies_summary: _deps,
      ...rest
    } = issue(i, r, store, urls);
    return {
      ...rest,
      user: stripUser(author),
      assignee: assignee ? stripUser(assignee) : null,
      assignees: assignees.map(stripUser),
    };
  };
  const pullUrl = (r: RepoRecord, pr: PullIssue) => `${urls.api}/repos/${r.owner}/${r.name}/pulls/${pr.number}`;
  const htmlPull = (r: RepoRecord, pr: PullIssue) => `${urls.html}/${r.owner}/${r.name}/pull/${pr.number}`;

  return { store, urls, user, repo, org, hookPull, hookIssue, pullUrl, htmlPull };
}

export type HookShapes = ReturnType<typeof hookShapes>;
