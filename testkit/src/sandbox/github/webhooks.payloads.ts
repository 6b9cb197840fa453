import type { SandboxDeps } from "./context";
import { checkRunPayloads } from "./webhooks.payloads.check-run";
import { issuesPayloads } from "./webhooks.payloads.issues";
import { pullRequestPayloads } from "./webhooks.payloads.pull-request";
import { pushPayloads } from "./webhooks.payloads.push";
import { repositoryPayloads } from "./webhooks.payloads.repository";
import { reviewCommentPayloads } from "./webhooks.payloads.review-comment";
import { reviewPayloads } from "./webhooks.payloads.review";
import { hookShapes } from "./webhooks.shapes";

export type { CheckRunRecord, ReviewCommentRecord, ReviewRecord } from "./webhooks.records";

/** Webhook payloads, in the shapes of GitHub's published webhook schemas (not the REST ones); one module per event. */
export function webhookPayloads(deps: SandboxDeps) {
  const shapes = hookShapes(deps);
  return {
    ...reviewCommentPayloads(shapes),
    ...reviewPayloads(shapes),
    ...issuesPayloads(shapes),
    ...repositoryPayloads(shapes),
    ...pullRequestPayloads(shapes),
    ...pushPayloads(shapes),
    ...checkRunPayloads(shapes),
  };
}
