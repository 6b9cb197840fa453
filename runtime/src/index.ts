/**
 * @fixloop/runtime: the clients and process plumbing the API and the worker share: the GitHub
 * client and the account read that decrypts its token, the BullMQ queues and job errors, a run's
 * Redis event log, the contribution checks, env loading, shutdown and the logger, and the
 * operations reads shared by the ops page and metrics (queue depth, throughput, worker registry).
 */
export * from "./github/github.client";
export * from "./github/github.account";
export * from "./github/github.app";
export * from "./github/github.app-config";
export * from "./github/github.errors";
export * from "./github/github.fork";
export * from "./github/github.pages";
export * from "./contributions/contributions.checks";
export * from "./contributions/contributions.policy";
export * from "./contributions/contributions.standing";
export * from "./queues";
export * from "./job-errors";
export * from "./run.events";
export * from "./process";
export * from "./logger";
export * from "./metrics/metrics.families";
export * from "./metrics/metrics.store";
export * from "./ops/workers.registry";
export * from "./ops/queues.stats";
export * from "./github/github.issues";
export * from "./github/github.issue-gone";
export * from "./runs.start";
export * from "./runs.cancel";
export * from "./label-trigger/label-trigger";
