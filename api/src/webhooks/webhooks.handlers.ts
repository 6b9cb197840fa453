import type { WebhookHandler } from "./webhooks.handler";
import { onInstallation, onInstallationRepositories } from "./webhooks.installation";
import { onIssues } from "./webhooks.issues";
import { onCheckRun, onPullRequest, onPush, onReview, onReviewComment } from "./webhooks.pulls";
import { onRepository } from "./webhooks.repository";

/**
 * GitHub event type (the X-GitHub-Event header) → its handler. One line per event (declare it
 * with `handler(schema, apply)` and branch on `action` inside); a type not listed is answered 202
 * and ignored.
 */
export const webhookHandlers: Partial<Record<string, WebhookHandler>> = {
  pull_request_review_comment: onReviewComment,
  pull_request_review: onReview,
  pull_request: onPullRequest,
  push: onPush,
  check_run: onCheckRun,
  issues: onIssues,
  repository: onRepository,
  installation: onInstallation,
  installation_repositories: onInstallationRepositories,
};

/** Events about an App installation rather than one repository: no known repository is needed. */
export const ACCOUNT_EVENTS = new Set(["installation", "installation_repositories"]);
