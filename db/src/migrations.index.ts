import type { Migration } from "kysely";

/**
 * Every migration under ./migrations, by name. A static list rather than a directory listing so
 * the migrator also runs from the image's compiled bundle, where there is no folder of TypeScript
 * files to import. Add one line per new migration file, or run `node db/bin/migration-index.mjs`
 * (migrations.index.test.ts fails until the line is there); the migrator runs them in name order.
 */
export const MIGRATIONS: Readonly<Record<string, () => Promise<Migration>>> = {
  "2026-11-21T00-00-initial-schema": () => import("./migrations/2026-11-21T00-00-initial-schema"),
  "2026-11-22T20-00-login-code-binding": () => import("./migrations/2026-11-22T20-00-login-code-binding"),
  "2026-11-22T20-45-cost-caps-and-prompts": () => import("./migrations/2026-11-22T20-45-cost-caps-and-prompts"),
  "2026-11-22T20-45-repository-test-settings": () => import("./migrations/2026-11-22T20-45-repository-test-settings"),
  "2026-11-22T21-00-bind-tokens-to-users": () => import("./migrations/2026-11-22T21-00-bind-tokens-to-users"),
  "2026-11-22T21-30-pull-request-drafts": () => import("./migrations/2026-11-22T21-30-pull-request-drafts"),
  "2026-11-23T01-00-model-requests": () => import("./migrations/2026-11-23T01-00-model-requests"),
  "2026-11-23T03-30-embedding-chunks": () => import("./migrations/2026-11-23T03-30-embedding-chunks"),
  "2026-11-23T23-00-spend-reservations": () => import("./migrations/2026-11-23T23-00-spend-reservations"),
  "2026-11-24T01-50-issue-linked-pull-requests": () =>
    import("./migrations/2026-11-24T01-50-issue-linked-pull-requests"),
  "2026-11-24T05-15-candidates-default": () => import("./migrations/2026-11-24T05-15-candidates-default"),
  "2026-11-24T06-00-label-trigger": () => import("./migrations/2026-11-24T06-00-label-trigger"),
  "2026-11-24T06-00-pull-request-events": () => import("./migrations/2026-11-24T06-00-pull-request-events"),
  "2026-11-24T08-30-present-unverified": () => import("./migrations/2026-11-24T08-30-present-unverified"),
  "2026-11-24T08-30-repository-backtests": () => import("./migrations/2026-11-24T08-30-repository-backtests"),
  "2026-11-24T08-30-review-addressing": () => import("./migrations/2026-11-24T08-30-review-addressing"),
  "2026-11-24T09-00-webhook-events-received": () => import("./migrations/2026-11-24T09-00-webhook-events-received"),
  "2026-11-24T09-05-solve-runs-by-issue": () => import("./migrations/2026-11-24T09-05-solve-runs-by-issue"),
  "2026-11-24T11-30-backtest-solves": () => import("./migrations/2026-11-24T11-30-backtest-solves"),
  "2026-11-25T03-30-payment-refunds": () => import("./migrations/2026-11-25T03-30-payment-refunds"),
  "2026-11-25T07-30-admin-bindings": () => import("./migrations/2026-11-25T07-30-admin-bindings"),
  "2026-11-25T08-00-pull-request-reopened": () => import("./migrations/2026-11-25T08-00-pull-request-reopened"),
  "2026-11-25T09-10-pull-request-github-updated-at": () =>
    import("./migrations/2026-11-25T09-10-pull-request-github-updated-at"),
  "2026-11-25T10-20-repositories-by-github-id": () => import("./migrations/2026-11-25T10-20-repositories-by-github-id"),
  "2026-11-25T10-30-issue-gone": () => import("./migrations/2026-11-25T10-30-issue-gone"),
  "2026-11-25T12-10-backtest-solve-runs": () => import("./migrations/2026-11-25T12-10-backtest-solve-runs"),
  "2026-11-25T15-10-run-cancel-reason": () => import("./migrations/2026-11-25T15-10-run-cancel-reason"),
  "2026-11-25T19-00-webhook-lookups": () => import("./migrations/2026-11-25T19-00-webhook-lookups"),
  "2026-11-25T19-10-issue-repository-left": () => import("./migrations/2026-11-25T19-10-issue-repository-left"),
  "2026-11-29T00-50-label-trigger-senders": () => import("./migrations/2026-11-29T00-50-label-trigger-senders"),
  "2026-11-29T01-40-issue-list-lookups": () => import("./migrations/2026-11-29T01-40-issue-list-lookups"),
  "2026-11-29T04-30-issue-list-pages": () => import("./migrations/2026-11-29T04-30-issue-list-pages"),
  "2026-11-29T07-30-github-app-installations": () => import("./migrations/2026-11-29T07-30-github-app-installations"),
  "2026-11-29T07-30-issue-list-versions": () => import("./migrations/2026-11-29T07-30-issue-list-versions"),
  "2026-11-29T10-30-default-run-mode": () => import("./migrations/2026-11-29T10-30-default-run-mode"),
  "2026-11-29T10-30-github-app-install-prompts": () =>
    import("./migrations/2026-11-29T10-30-github-app-install-prompts"),
  "2026-11-29T10-30-github-app-manifest": () => import("./migrations/2026-11-29T10-30-github-app-manifest"),
  "2026-11-29T10-45-run-test-logs": () => import("./migrations/2026-11-29T10-45-run-test-logs"),
  "2026-11-29T13-45-run-claim-token": () => import("./migrations/2026-11-29T13-45-run-claim-token"),
  "2026-11-29T14-15-backtest-claim-token": () => import("./migrations/2026-11-29T14-15-backtest-claim-token"),
  "2026-11-29T17-00-solution-job-claims": () => import("./migrations/2026-11-29T17-00-solution-job-claims"),
  "2026-11-29T20-00-github-repositories": () => import("./migrations/2026-11-29T20-00-github-repositories"),
};
