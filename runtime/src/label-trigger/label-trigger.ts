import { issues, labelTriggers, solutions } from "@fixloop/db";
import { githubForUser } from "../github/github.account";
import { hasLabel, issueColumns, type GithubIssue } from "../github/github.issues";
import { senderMayTrigger } from "./label-trigger.senders";
import { solveClaimed } from "./label-trigger.solve";
import type { LabeledIssue, LabelTriggerDeps, LabelTriggerOutcome } from "./label-trigger.types";

export * from "./label-trigger.types";
export { labelTriggerComments, runPageUrl } from "./label-trigger.comments";

/**
 * The label trigger, the one rule behind the `issues.labeled` webhook and the repository sync: when
 * a repository's user enabled "solve issues labelled X" and the issue carries X, the issue is
 * imported (or refreshed) and solved under that user's plan, caps and candidate settings, with a
 * comment linking the live run. Only the enabling user's plan pays, so only a label whose sender
 * may push to the repository (or whom the user listed) starts anything: one an issue template, a
 * bot or an auto-labeler put on an outsider's issue is refused, and the refusal is kept on the
 * repository for its settings to show (no claim: a maintainer's label later still starts the run).
 * The issue and its labels are read from GitHub, not taken from the caller. Each issue + label is
 * claimed once in Postgres (`label_triggers`), so it starts at most one run however often it is seen.
 */
export async function handleLabeledIssue(deps: LabelTriggerDeps, event: LabeledIssue): Promise<LabelTriggerOutcome> {
  const { db, logger } = deps;
  const repo = await labelTriggers.enabledFor(db, event.repositoryId, event.label);
  if (!repo) {
    logger.debug({ repo: event.repoFullName, label: event.label }, "label trigger: not enabled for this label");
    return { status: "disabled" };
  }
  const [owner = "", name = ""] = repo.fullName.split("/");
  const known = await issues.importedIssue(db, repo.userId, repo.githubId, event.issueNumber);
  if (known && (await labelTriggers.ofIssue(db, known.id)).some((t) => t.label === repo.label.toLowerCase()))
    return { status: "duplicate" };
  const gh = await githubForUser(deps, repo.userId);
  const { data } = await gh.client.rest.issues.get({ owner, repo: name, issue_number: event.issueNumber });
  const found = data as GithubIssue;
  if (found.pull_request) return { status: "not_an_issue" };
  if (!hasLabel(found, repo.label)) return { status: "label_absent" };
  const verdict = await senderMayTrigger(
    gh,
    { owner, name, allowedSenders: repo.allowedSenders },
    event.senderLogin,
    found.user?.login ?? null,
  );
  if (!verdict.ok) {
    await labelTriggers.recordRefusal(db, repo.id, {
      issueNumber: event.issueNumber,
      sender: event.senderLogin,
      reason: verdict.reason,
    });
    logger.warn(
      { repo: repo.fullName, issue: event.issueNumber, sender: event.senderLogin, reason: verdict.reason },
      "label trigger refused",
    );
    return { status: "refused", reason: verdict.reason };
  }
  await issues.upsertSynced(db, repo.userId, { id: repo.id, githubId: repo.githubId }, [issueColumns(found)]);
  const stored = await issues.importedIssue(db, repo.userId, repo.githubId, event.issueNumber);
  if (!stored) throw new Error(`label trigger: ${repo.fullName}#${event.issueNumber} was not stored`);
  // One solve per issue at a time: while its last solution awaits review, a label (another one, or
  // the same after its claim) starts nothing. Refused like an outsider's label, without a claim, so
  // the repository's settings say why and a label after the review still starts the run.
  if (await solutions.awaitingReviewOf(db, stored.id)) {
    const reason = awaitingReviewReason(event.issueNumber);
    await labelTriggers.recordRefusal(db, repo.id, {
      issueNumber: event.issueNumber,
      sender: event.senderLogin,
      reason,
    });
    logger.info(
      { repo: repo.fullName, issue: event.issueNumber, sender: event.senderLogin },
      "label trigger: a solution awaits review",
    );
    return { status: "awaiting_review", issueId: stored.id, reason };
  }
  const claimId = await labelTriggers.claim(db, {
    userId: repo.userId,
    issueId: stored.id,
    label: repo.label,
    senderLogin: event.senderLogin,
  });
  if (!claimId) return { status: "duplicate" };
  try {
    return await solveClaimed(deps, gh, {
      claimId,
      userId: repo.userId,
      issueId: stored.id,
      label: repo.label,
      repositoryId: repo.githubId,
      owner,
      repo: name,
      number: event.issueNumber,
      sender: event.senderLogin,
    });
  } catch (err) {
    await labelTriggers.release(db, claimId);
    logger.error(
      { repo: repo.fullName, issue: event.issueNumber, err: (err as Error).message },
      "label trigger failed",
    );
    throw err;
  }
}

/** Why a label started no solve on an issue whose last solution awaits review. */
export const awaitingReviewReason = (issueNumber: number) =>
  `a solution of issue #${issueNumber} awaits review: open it from Pending Validations, or press Generate Solution on the issue to solve it again`;
