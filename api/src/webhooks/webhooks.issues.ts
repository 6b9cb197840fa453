import { handleLabeledIssue } from "../label-trigger/label-trigger.handler";
import { applied, handler, ignored } from "./webhooks.handler";
import { IssuesEvent } from "./webhooks.schemas";

/**
 * `issues`: a label added to an issue goes to the label trigger, which solves the issue when the
 * repository's user enabled that label (its own claim in Postgres makes a repeat start nothing).
 * It reads GitHub and queues a run, so it works outside the delivery's transaction.
 */
export const onIssues = handler(
  IssuesEvent,
  async (ctx, e) => {
    if (e.action !== "labeled" || !e.label) return ignored(`action_${e.action}`);
    const outcome = await handleLabeledIssue(ctx.deps, {
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
