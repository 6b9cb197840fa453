import type { SandboxDeps } from "./context";
import { authorAssociation, issue, label } from "./issues.payloads";
import { pullFull, pullSimple, type PullStats } from "./pulls.payloads";
import { repository } from "./repos.payloads";
import type { ParsedCommit } from "./git-parse";
import type { IssueRecord, LabelRecord, RepoRecord } from "./state";
import { nodeId } from "./urls";
import { simpleUser } from "./users.payloads";
import type { CheckRunRecord, ReviewCommentRecord, ReviewRecord } from "./webhooks.records";

export type { CheckRunRecord, ReviewCommentRecord, ReviewRecord } from "./webhooks.records";

type PullIssue = IssueRecord & { pull: NonNullable<IssueRecord["pull"]> };

/** Webhook payloads, in the shapes of GitHub's published webhook schemas (not the REST ones). */
export function webhookPayloads(deps: SandboxDeps) {
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

  return {
    reviewComment(r: RepoRecord, pr: PullIssue, c: ReviewCommentRecord, sender: string) {
      const url = `${urls.api}/repos/${r.owner}/${r.name}/pulls/comments/${c.id}`;
      const html = `${htmlPull(r, pr)}#discussion_r${c.id}`;
      return {
        action: "created",
        comment: {
          url,
          pull_request_review_id: c.reviewId,
          id: c.id,
          node_id: nodeId("PullRequestReviewComment", c.id),
          diff_hunk: `@@ -${c.line},1 +${c.line},1 @@`,
          path: c.path,
          position: 1,
          original_position: 1,
          commit_id: c.commitId,
          original_commit_id: c.commitId,
          user: user(c.user),
          body: c.body,
          created_at: c.createdAt,
          updated_at: c.createdAt,
          html_url: html,
          pull_request_url: pullUrl(r, pr),
          author_association: authorAssociation(store, r, c.user),
          _links: { self: { href: url }, html: { href: html }, pull_request: { href: pullUrl(r, pr) } },
          start_line: null,
          original_start_line: null,
          original_line: c.line,
          line: c.line,
          start_side: null,
          side: c.side,
          reactions: reactions(url),
          ...(c.inReplyTo !== undefined ? { in_reply_to_id: c.inReplyTo } : {}),
        },
        pull_request: hookPull(pullSimple(pr, r, store, urls, null)),
        repository: repo(r),
        sender: user(sender),
      };
    },
    review(r: RepoRecord, pr: PullIssue, rv: ReviewRecord) {
      const html = `${htmlPull(r, pr)}#pullrequestreview-${rv.id}`;
      return {
        action: "submitted",
        review: {
          id: rv.id,
          node_id: nodeId("PullRequestReview", rv.id),
          user: user(rv.user),
          body: rv.body || null,
          commit_id: rv.commitId,
          submitted_at: rv.submittedAt,
          state: rv.state.toLowerCase(),
          html_url: html,
          pull_request_url: pullUrl(r, pr),
          author_association: authorAssociation(store, r, rv.user),
          _links: { html: { href: html }, pull_request: { href: pullUrl(r, pr) } },
        },
        pull_request: hookPull(pullSimple(pr, r, store, urls, null)),
        repository: repo(r),
        sender: user(rv.user),
      };
    },
    /** `issues` `labeled`: one label added to an issue (each label of a request is its own delivery, as on GitHub). */
    labeled(r: RepoRecord, i: IssueRecord, l: LabelRecord, sender: string) {
      return {
        action: "labeled",
        issue: hookIssue(r, i),
        label: label(l, r, urls),
        repository: repo(r),
        sender: user(sender),
      };
    },
    /** `repository` `renamed`: `r` under its new name, `from` its old name (without the owner). */
    renamed(r: RepoRecord, from: string, sender: string) {
      return {
        action: "renamed",
        changes: { repository: { name: { from } } },
        repository: repo(r),
        sender: user(sender),
      };
    },
    /** `repository` `transferred`: `r` under its new owner, `from` the login of the old one. */
    transferred(r: RepoRecord, from: string, sender: string) {
      return {
        action: "transferred",
        changes: { owner: { from: { user: user(from) } } },
        repository: repo(r),
        sender: user(sender),
      };
    },
    /** `issues` `deleted`: the issue as it was just before. */
    issueDeleted(r: RepoRecord, i: IssueRecord, sender: string) {
      return { action: "deleted", issue: hookIssue(r, i), repository: repo(r), sender: user(sender) };
    },
    /** `issues` `transferred`: the issue as it was, and as it now is in `to`. */
    issueTransferred(r: RepoRecord, before: IssueRecord, to: RepoRecord, after: IssueRecord, sender: string) {
      return {
        action: "transferred",
        changes: { new_issue: hookIssue(to, after), new_repository: repo(to) },
        issue: hookIssue(r, before),
        repository: repo(r),
        sender: user(sender),
      };
    },
    closed(r: RepoRecord, pr: PullIssue, stats: PullStats, sender: string, action: "closed" | "reopened" = "closed") {
      return {
        action,
        number: pr.number,
        pull_request: hookPull(pullFull(pr, r, store, urls, null, stats)),
        repository: repo(r),
        sender: user(sender),
      };
    },
    synchronize(r: RepoRecord, pr: PullIssue, stats: PullStats, before: string, after: string, sender: string) {
      return {
        action: "synchronize",
        number: pr.number,
        before,
        after,
        pull_request: hookPull(pullFull(pr, r, store, urls, null, stats)),
        repository: repo(r),
        sender: user(sender),
      };
    },
    push(
      r: RepoRecord,
      ref: string,
      before: string,
      after: string,
      commits: { commit: ParsedCommit; files: [string, string][] }[],
      pusher: string,
    ) {
      const html = `${urls.html}/${r.owner}/${r.name}`;
      const who = store.user(pusher);
      const list = commits.map(({ commit: c, files }) => ({
        id: c.sha,
        tree_id: c.tree,
        distinct: true,
        message: c.message,
        timestamp: c.committer.date,
        url: `${html}/commit/${c.sha}`,
        author: { name: c.author.name, email: c.author.email, date: c.author.date },
        committer: { name: c.committer.name, email: c.committer.email, date: c.committer.date },
        added: files.filter(([s]) => s === "A").map(([, p]) => p),
        removed: files.filter(([s]) => s === "D").map(([, p]) => p),
        modified: files.filter(([s]) => s !== "A" && s !== "D").map(([, p]) => p),
      }));
      return {
        ref,
        before,
        after,
        created: false,
        deleted: false,
        forced: false,
        base_ref: null,
        compare: `${html}/compare/${before.slice(0, 12)}...${after.slice(0, 12)}`,
        commits: list,
        head_commit: list[list.length - 1] ?? null,
        repository: {
          ...repo(r),
          pushed_at: Math.floor(Date.now() / 1000),
          created_at: Math.floor(Date.parse(r.createdAt) / 1000),
        },
        pusher: { name: pusher, email: who?.email ?? null },
        sender: user(pusher),
      };
    },
    checkRun(r: RepoRecord, run: CheckRunRecord, pulls: PullIssue[], sender: string) {
      const url = `${urls.api}/repos/${r.owner}/${r.name}/check-runs/${run.id}`;
      const prRefs = pulls.map((pr) => ({
        url: pullUrl(r, pr),
        id: pr.pullId ?? pr.id,
        number: pr.number,
        head: { ref: pr.pull.headRef, sha: pr.pull.headSha, repo: miniRepo(r) },
        base: { ref: pr.pull.baseRef, sha: pr.pull.baseSha, repo: miniRepo(r) },
      }));
      return {
        action: "completed",
        check_run: {
          id: run.id,
          name: run.name,
          node_id: nodeId("CheckRun", run.id),
          head_sha: run.headSha,
          external_id: "",
          url,
          html_url: `${urls.html}/${r.owner}/${r.name}/runs/${run.id}`,
          details_url: `${urls.html}/${r.owner}/${r.name}/runs/${run.id}`,
          status: "completed",
          conclusion: run.conclusion,
          started_at: run.startedAt,
          completed_at: run.completedAt,
          output: {
            title: run.title,
            summary: run.summary,
            text: null,
            annotations_count: 0,
            annotations_url: `${url}/annotations`,
          },
          check_suite: {
            id: run.suiteId,
            node_id: nodeId("CheckSuite", run.suiteId),
            head_branch: run.headBranch,
            head_sha: run.headSha,
            status: "completed",
            conclusion: run.conclusion,
            url: `${urls.api}/repos/${r.owner}/${r.name}/check-suites/${run.suiteId}`,
            before: null,
            after: run.headSha,
            pull_requests: prRefs,
            app: app(),
            created_at: run.startedAt,
            updated_at: run.completedAt,
          },
          app: app(),
          pull_requests: prRefs,
        },
        repository: repo(r),
        sender: user(sender),
      };
    },
  };

  function miniRepo(r: RepoRecord) {
    return { id: r.id, url: `${urls.api}/repos/${r.owner}/${r.name}`, name: r.name };
  }

  function app() {
    const owner = user(store.data.users[0]?.login ?? "octocat");
    return {
      id: 1,
      slug: "sandbox-ci",
      node_id: nodeId("App", 1),
      owner,
      name: "Sandbox CI",
      description: "Checks reported through the stand-in",
      external_url: urls.html,
      html_url: `${urls.html}/apps/sandbox-ci`,
      created_at: "2026-01-01T00:00:00Z",
      updated_at: "2026-01-01T00:00:00Z",
      permissions: { checks: "write" },
      events: [],
    };
  }
}

function reactions(url: string) {
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
