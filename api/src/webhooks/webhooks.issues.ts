import { markIssueGone, safeUrl } from "@fixloop/runtime";
import { handleLabeledIssue } from "../label-trigger/label-trigger.handler";
import { applied, handler, ignored } from "./webhooks.handler";
import { IssuesEvent } from "./webhooks.schemas";

/**
 * `issues`: a label added to an issue goes to the label trigger, which solves the issue when the
 * repository's user enabled that label (its own claim in Postgres makes a repeat start nothing).
 * It reads GitHub and queues a run, so it works outside the delivery's transaction. An issue
 * deleted or transferred on GitHub is closed with that reason for every user who has it, so it is
 * neither solved nor given a pull request any more, and their runs of it still queued or running
 * are stopped (a redelivery changes nothing more).
 */
export const onIssues = handler(
  IssuesEvent,
  async (ctx, e) => {
    if (e.action === "deleted" || e.action === "transferred") {
      const movedTo = e.action === "transferred" ? safeUrl(e.changes?.new_issue?.html_url) : null;
      const marked = await markIssueGone(
        ctx.deps,
        { githubId: e.repository.id, fullName: e.repository.full_name },
        e.issue.number,
        { reason: e.action, movedTo },
      );
      ctx.logger.info({ deliveryId: ctx.deliveryId, action: e.action, marked }, "issue gone from GitHub");
      return marked > 0 ? applied(marked) : ignored("no_issue_to_mark");
    }
    if (e.action !== "labeled" || !e.label) return ignored(`action_${e.action}`);
    const outcome = await handleLabeledIssue(ctx.deps, {
      repositoryId: e.repository.id,
      repoFullName: e.repository.full_name,
      issueNumber: e.issue.number,
      label: e.label.name,
      senderLogin: e.sender?.login ?? null,
    });
    ctx.logger.info({ deliveryId: ctx.deliveryId, outcome: outcome.status }, "label trigger from a webhook");
    return outcome.status === "started" ? applied(1) : ignored(`label_trigger_${outcome.status}`);
  },
  { outside: true },
);
