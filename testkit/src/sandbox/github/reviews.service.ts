import type { SandboxDeps } from "./context";
import { isPull, type PullIssue } from "./pulls.payloads";
import { isoNow, type RepoRecord } from "./state";
import { webhookPayloads } from "./webhooks.payloads";

/**
 * Review comments and check runs as GitHub records them: stored, then delivered as a signed
 * webhook when one is configured. Shared by the REST routes and the sandbox PR page's forms.
 */
export function reviewsService(deps: SandboxDeps) {
  const { store } = deps;
  const payloads = webhookPayloads(deps);
  return {
    addReviewComment(
      repo: RepoRecord,
      pr: PullIssue,
      input: { body: string; path: string; line: number; side: "LEFT" | "RIGHT"; commitId?: string },
      login: string,
    ) {
      const comment = {
        id: store.nextId(),
        repoId: repo.id,
        number: pr.number,
        reviewId: store.nextId(),
        body: input.body,
        path: input.path,
        line: input.line,
        side: input.side,
        commitId: input.commitId ?? pr.pull.headSha,
        user: login,
        createdAt: isoNow(),
      } as const;
      store.mutate((s) => (s.reviewComments ??= []).push(comment));
      const payload = payloads.reviewComment(repo, pr, comment, login);
      deps.hooks.send("pull_request_review_comment", payload);
      return payload.comment;
    },
    addCheckRun(
      repo: RepoRecord,
      input: {
        name: string;
        headSha: string;
        conclusion: string;
        title?: string;
        summary?: string;
        text?: string;
        startedAt?: string;
        completedAt?: string;
        /** Reported by GitHub Actions: the job's log (and, for tests, a foreign host its log endpoint redirects to). */
        actions?: { log: string; logUrl?: string };
      },
      login: string,
    ) {
      const pulls = store
        .issuesOf(repo.id)
        .filter(isPull)
        .filter((p) => p.pull.headSha === input.headSha);
      const now = isoNow();
      const run = {
        id: store.nextId(),
        repoId: repo.id,
        suiteId: store.nextId(),
        name: input.name,
        headSha: input.headSha,
        headBranch: pulls[0]?.pull.headRef ?? repo.defaultBranch,
        conclusion: input.conclusion,
        title: input.title ?? null,
        summary: input.summary ?? null,
        text: input.text ?? null,
        startedAt: input.startedAt ?? now,
        completedAt: input.completedAt ?? now,
        ...(input.actions ? { actions: { runId: store.nextId(), ...input.actions } } : {}),
      };
      store.mutate((s) => (s.checkRuns ??= []).push(run));
      const payload = payloads.checkRun(repo, run, pulls, login);
      deps.hooks.send("check_run", payload);
      return payload.check_run;
    },
  };
}
