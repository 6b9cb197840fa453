import type { RepoRecord } from "./state";
import { nodeId } from "./urls";
import type { CheckRunRecord } from "./webhooks.records";
import type { HookShapes, PullIssue } from "./webhooks.shapes";

/** `check_run` `completed` deliveries, with the pull requests whose head the run checked. */
export function checkRunPayloads({ store, urls, user, repo, org, pullUrl }: HookShapes) {
  return {
    checkRun(r: RepoRecord, run: CheckRunRecord, pulls: PullIssue[], sender: string) {
      const url = `${urls.api}/repos/${r.owner}/${r.name}/check-runs/${run.id}`;
      const prRefs = pulls.map((pr) => ({
        url: pullUrl(r, pr),
        id: pr.pullId ?? pr.id,
        number: pr.number,
        head: { ref: pr.pull.headRef, sha: pr.pull.headSha, repo: miniRepo(r) },
        base: { ref: pr.pull.baseRef, sha: pr.pull.baseSha, repo: miniRepo(r) },
      }));
      // An Actions job links its run's job page; the check run's id is the job's id.
      const details = run.actions
        ? `${urls.html}/${r.owner}/${r.name}/actions/runs/${run.actions.runId}/job/${run.id}`
        : `${urls.html}/${r.owner}/${r.name}/runs/${run.id}`;
      const by = run.actions ? actionsApp() : app();
      return {
        action: "completed",
        check_run: {
          id: run.id,
          name: run.name,
          node_id: nodeId("CheckRun", run.id),
          head_sha: run.headSha,
          external_id: "",
          url,
          html_url: details,
          details_url: details,
          status: "completed",
          conclusion: run.conclusion,
          started_at: run.startedAt,
          completed_at: run.completedAt,
          output: {
            title: run.title,
            summary: run.summary,
            text: run.text ?? null,
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
            app: by,
            created_at: run.startedAt,
            updated_at: run.completedAt,
          },
          app: by,
          pull_requests: prRefs,
        },
        repository: repo(r),
        ...org(r),
        sender: user(sender),
      };
    },
  };

  function miniRepo(r: RepoRecord) {
    return { id: r.id, url: `${urls.api}/repos/${r.owner}/${r.name}`, name: r.name };
  }

  /** GitHub Actions as GitHub names it on its check runs (app id 15368, owned by the `github` organisation). */
  function actionsApp() {
    return {
      id: 15368,
      slug: "github-actions",
      node_id: nodeId("App", 15368),
      owner: { ...user(store.data.users[0]?.login ?? "octocat"), login: "github", type: "Organization" },
      name: "GitHub Actions",
      description: "Automate your workflow from idea to production",
      external_url: "https://help.github.com/en/actions",
      html_url: `${urls.html}/apps/github-actions`,
      created_at: "2018-07-30T09:30:17Z",
      updated_at: "2024-04-10T20:33:16Z",
      permissions: { actions: "write", checks: "write", contents: "write", metadata: "read" },
      events: ["check_run", "push", "pull_request"],
    };
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
