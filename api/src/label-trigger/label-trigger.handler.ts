import { modelsConfigFromEnv } from "@fixloop/contract";
import {
  handleLabeledIssue as handle,
  type LabeledIssue,
  type LabelTriggerDeps,
  type LabelTriggerOutcome,
} from "@fixloop/runtime";
import type { AppDeps } from "../deps";
import { githubUserContext } from "../auth/auth.cipher";

/** The label trigger's dependencies, taken from the API's. */
export function labelTriggerDeps(deps: AppDeps): LabelTriggerDeps {
  return {
    ...githubUserContext(deps),
    redis: deps.redis,
    queues: deps.queues,
    logger: deps.logger,
    models: modelsConfigFromEnv(deps.env),
    publicUrl: deps.env.PUBLIC_URL ?? `http://localhost:${deps.env.PORT}`,
  };
}

/**
 * For an `issues.labeled` webhook: `repositoryId` is `repository.id`, `repoFullName`
 * `repository.full_name`, `issueNumber`
 * `issue.number`, `label` `label.name`, `senderLogin` `sender.login`. Solves the issue when the
 * repository's user enabled that label (see runtime's `handleLabeledIssue`); otherwise does nothing.
 */
export async function handleLabeledIssue(
  deps: AppDeps,
  event: {
    repositoryId: number;
    repoFullName: string;
    issueNumber: number;
    label: string;
    senderLogin: string | null;
  },
): Promise<LabelTriggerOutcome> {
  const labeled: LabeledIssue = event;
  return handle(labelTriggerDeps(deps), labeled);
}
