import type { SandboxDeps } from "./context";
import type { IssueRecord, LabelRecord, RepoRecord } from "./state";
import { webhookPayloads } from "./webhooks.payloads";

/**
 * Adds labels to an issue as `sender` did on GitHub: a label the repository lacks is created, one
 * the issue has already is skipped, and each label added is its own signed `issues` `labeled`
 * delivery. The REST route and the issue page's label control both add labels through here.
 */
export function addIssueLabels(
  deps: SandboxDeps,
  repo: RepoRecord,
  issue: IssueRecord,
  names: string[],
  sender: string,
): LabelRecord[] {
  const now = new Date().toISOString();
  const added: LabelRecord[] = [];
  deps.store.mutate(() => {
    for (const name of names) {
      const found = repo.labels.find((l) => l.name.toLowerCase() === name.toLowerCase());
      const known = found ?? { id: deps.store.nextId(), name, color: "ededed", description: null, default: false };
      if (!found) repo.labels.push(known);
      if (!issue.labels.some((l) => l.toLowerCase() === known.name.toLowerCase())) {
        issue.labels.push(known.name);
        added.push(known);
      }
    }
    issue.updatedAt = now;
  });
  for (const l of added) deps.hooks.send("issues", webhookPayloads(deps).labeled(repo, issue, l, sender));
  return added;
}

/** The issue's labels as records of its repository. */
export const labelsOf = (repo: RepoRecord, issue: IssueRecord): LabelRecord[] =>
  issue.labels.map((n) => repo.labels.find((l) => l.name === n)).filter((l): l is LabelRecord => l !== undefined);
