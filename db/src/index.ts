export * from "./schema";
export { createDb, type Db } from "./client";
export { migrateToLatest } from "./migrate";
export { createTokenCipher, type TokenCipher } from "./crypto/token-cipher";
export * as domain from "./domain";
export * from "./repositories/notifications.repository";
export * from "./repositories/payments.repository";
export * from "./repositories/subscriptions.repository";
export * from "./repositories/usage.repository";
export * from "./repositories/costs.repository";
export * from "./repositories/issues.repository";
export { findOpenPullRequestForIssue, OPEN_PULL_REQUEST_MESSAGE } from "./repositories/pull-requests.repository";
/** Named state transitions: runs, solutions, issues and pull requests change only through these. */
export * as issues from "./repositories/issues.repository";
export * as runs from "./repositories/runs.repository";
export * as solutions from "./repositories/solutions.repository";
export * as pullRequests from "./repositories/pull-requests.repository";
export * from "./repositories/json-columns";
export * from "./repositories/embeddings.repository";
