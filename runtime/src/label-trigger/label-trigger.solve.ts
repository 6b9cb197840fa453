import { ACTIONS, DEFAULT_MODEL_ID, domain, listModels, type StandingCondition, standing } from "@fixloop/contract";
import { currentUsagePeriod, findOpenPullRequestForIssue, issues, labelTriggers, users } from "@fixloop/db";
import type { GithubForUser } from "../github/github.account";
import { githubForRepository, INSTALLATION_PERMISSIONS } from "../github/github.app";
import { GithubError } from "../github/github.errors";
import { assertPolicyStillAllows } from "../contributions/contributions.standing";
import { startAndEnqueue } from "../runs.start";
import { labelTriggerComments, runPageUrl } from "./label-trigger.comments";
import type { LabelTriggerDeps, LabelTriggerOutcome } from "./label-trigger.types";

/** The deployment's default model when the plan allows it, else the first model the plan allows. */
function modelFor(deps: LabelTriggerDeps, plan: Parameters<typeof domain.planAllowsProvider>[0]) {
  const allowed = listModels(deps.models).filter((m) => domain.planAllowsProvider(plan, m.provider));
  return allowed.find((m) => m.id === DEFAULT_MODEL_ID) ?? allowed[0];
}

/** A label's solve refused by the issue's standing, as its outcome (a gone issue is kept closed). */
const REFUSED_AS: Record<StandingCondition, "closed" | "repository_left" | "pull_request_open"> = {
  gone: "closed",
  repository_left: "repository_left",
  closed: "closed",
  pull_request_open: "pull_request_open",
};

/**
 * Solves a claimed issue as its user would by pressing Solve: the same checks (closed, open pull
 * request, contribution rules, plan, quota) and the one run start, with the user's default number
 * of candidates and `trigger: "label"` in the run input. Each outcome is settled on the claim and logged.
 */
export async function solveClaimed(
  deps: LabelTriggerDeps,
  gh: GithubForUser,
  c: {
    claimId: string;
    userId: string;
    issueId: string;
    label: string;
    /** The repository's GitHub id, and its name now. */
    repositoryId: string;
    owner: string;
    repo: string;
    number: number;
    /** Who added the label (null: the sync found it), recorded on the run. */
    sender: string | null;
  },
): Promise<LabelTriggerOutcome> {
  const { db, logger } = deps;
  const log = { userId: c.userId, repo: `${c.owner}/${c.repo}`, issue: c.number, label: c.label };
  const done = async (outcome: LabelTriggerOutcome, runId: string | null = null) => {
    await labelTriggers.settle(db, c.claimId, outcome.status, runId);
    logger.info({ ...log, outcome: outcome.status, runId }, "label trigger");
    return outcome;
  };
  const issue = await issues.findForRun(db, c.userId, c.issueId);
  if (!issue) return done({ status: "closed", issueId: c.issueId });
  // Refused as a solve from the page would be (the contract's table), each with its outcome.
  const pullRequestOpen = !!(await findOpenPullRequestForIssue(db, issue.id));
  const allowance = ACTIONS.solve(standing(issue, { pullRequestOpen }));
  if (!allowance.allowed) return done({ status: REFUSED_AS[allowance.condition], issueId: issue.id });
  try {
    await assertPolicyStillAllows(
      gh.client,
      { redis: deps.redis, prefix: deps.queues.prefix },
      issue.upstream_full_name ?? issue.repo_full_name,
    );
  } catch (err) {
    if (!(err instanceof GithubError) || err.code !== "contributions.blocked") throw err;
    logger.warn({ ...log, reason: err.message }, "label trigger: the contribution rules block a solve");
    return done({ status: "blocked", issueId: issue.id });
  }
  const period = await currentUsagePeriod(db, c.userId);
  const model = modelFor(deps, period.plan);
  if (!model) return done({ status: "no_model", issueId: issue.id });
  const candidates = await users.defaultCandidates(db, c.userId);
  const outcome = await startAndEnqueue(deps, async () => ({
    userId: c.userId,
    issueId: issue.id,
    modelId: model.id,
    kind: "solve",
    input: {
      trigger: "label",
      triggerLabel: c.label,
      ...(c.sender ? { triggerSender: c.sender } : {}),
      ...(candidates > 1 ? { candidates } : {}),
    },
  }));
  // The run stands whether or not GitHub takes the comment; a refused comment is logged. The App's
  // bot writes it when it is installed on the repository (a token minted for this comment, narrowed
  // to the repository and issues: write); otherwise the user's grant, as before.
  const comment = (body: string) =>
    githubForRepository(
      deps,
      c.userId,
      { fullName: `${c.owner}/${c.repo}`, githubId: c.repositoryId },
      INSTALLATION_PERMISSIONS.issue,
    )
      .then((w) => w.client.rest.issues.createComment({ owner: c.owner, repo: c.repo, issue_number: c.number, body }))
      .catch((err: Error) => logger.warn({ ...log, err: err.message }, "label trigger: comment failed"));
  if (outcome.status === "over_quota") {
    await comment(labelTriggerComments.overQuota(c.label));
    return done({ status: "over_quota", issueId: issue.id });
  }
  if (outcome.status === "active")
    return done({ status: "active", issueId: issue.id, runId: outcome.runId }, outcome.runId);
  await comment(labelTriggerComments.started(c.label, runPageUrl(deps.publicUrl, issue.id, outcome.runId)));
  return done({ status: "started", issueId: issue.id, runId: outcome.runId }, outcome.runId);
}
