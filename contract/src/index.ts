/**
 * @fixloop/contract: the shapes every package agrees on, and nothing that runs. Statuses and step
 * ids, JSON column shapes, run events and views, the job catalog (payloads and results), error
 * codes, the model catalog and the shared domain rules. Depends on zod (and diff for change
 * sizes) only; no database, queue, GitHub or logger client may be imported here.
 */
export * from "./domain";
export * as domain from "./domain";
export * from "./pipeline";
export * from "./file-change";
export * from "./linked-pull";
export * from "./jobs";
export * from "./github-names";
export * from "./job-failure";
export * from "./generation";
export * from "./tests";
export * from "./tests.verdict";
export * from "./sandbox.check";
export * from "./candidates";
export * from "./agent";
export * from "./reproduction";
export * from "./base-branch";
export * from "./steps";
export * from "./refine";
export * from "./setup-network";
export * from "./prompt-record";
export * from "./models/catalog";
export * from "./models/models.config";
export * from "./models/models.list";
export * from "./models/models.pricing";
export * from "./models/models.env";
export * from "./change/assess-change";
export * from "./change/change-size";
export * from "./change/change-complexity";
export * from "./change/diff-counts";
export * from "./change/path-policy";
export * from "./change/hidden-chars";
export * from "./change/install-risk";
export * from "./label-trigger";
export * from "./pull-request-timeline";
export * from "./backtest";
export * from "./issue-list";
export * from "./github-app";
export * from "./standing";
