import type { Redis } from "ioredis";
import type { Logger } from "pino";
import type { ModelsConfig } from "@fixloop/contract";
import type { GithubRepositoryContext } from "../github/github.app";
import type { Queues } from "../queues";

/** What the label trigger needs: the API's deps and the worker's context both provide it. */
export interface LabelTriggerDeps extends GithubRepositoryContext {
  redis: Redis;
  queues: Pick<Queues, "solve" | "prefix">;
  logger: Logger;
  /** The models this deployment offers (the run takes the default one the plan allows). */
  models: ModelsConfig;
  /** Origin of the web app, for the run link in the issue comment. */
  publicUrl: string;
}

/** A label seen on an issue: from an `issues.labeled` webhook, or found by the repository sync. */
export interface LabeledIssue {
  /** The repository's GitHub id, and its name (for the logs). */
  repositoryId: number | string;
  repoFullName: string;
  issueNumber: number;
  label: string;
  /** Who added the label (webhook); null when the sync found it (the issue's author is checked instead). */
  senderLogin: string | null;
}

export type LabelTriggerOutcome =
  | { status: "disabled" | "not_an_issue" | "label_absent" | "duplicate" }
  /** The label's sender may not push to the repository and is not listed: no run, the refusal is kept on the repository. */
  | { status: "refused"; reason: string }
  | { status: "started" | "active"; issueId: string; runId: string }
  /** The issue's last solution awaits review: no second solve, the refusal is kept on the repository. */
  | { status: "awaiting_review"; issueId: string; reason: string }
  | {
      status: "over_quota" | "blocked" | "closed" | "repository_left" | "pull_request_open" | "no_model";
      issueId: string;
    };
