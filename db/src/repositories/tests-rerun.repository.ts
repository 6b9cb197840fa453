import type { Kysely } from "kysely";
import type { Database, Issue } from "../schema";
import type { FileChange } from "@fixloop/contract";
import { selectIssues } from "./issues.reads";
import { filesChanged, solutionMetadata } from "./json-columns";

/**
 * What a tests re-run needs of a pending solution of the user: its files at this revision, the
 * commit, the issue, and what its verdict is judged with (the reproduction test, the policy checks).
 */
export async function forTestsRerun(
  db: Kysely<Database>,
  userId: string,
  solutionId: string,
): Promise<{
  revision: number;
  files: FileChange[];
  baseCommitSha: string | null;
  issue: Issue;
  /** Shaped by the contract's `SolutionReproduction`. */
  reproduction: unknown;
  /** The policy checks block the current files. */
  blocked: boolean;
  /** The earlier evidence, shaped by the contract's `SolutionTests` (its chosen test files run again). */
  tests: unknown;
} | null> {
  const row = await db
    .selectFrom("solutions")
    .select(["id", "issue_id", "revision", "files_changed", "base_commit_sha", "metadata", "status"])
    .where("id", "=", solutionId)
    .where("user_id", "=", userId)
    .executeTakeFirst();
  if (!row || row.status !== "pending") return null;
  const issue = await selectIssues(db).where("issues.id", "=", row.issue_id).executeTakeFirst();
  if (!issue) return null;
  const meta = solutionMetadata.read(row.metadata);
  return {
    revision: row.revision,
    files: filesChanged.read(row.files_changed),
    baseCommitSha: row.base_commit_sha ?? meta.baseCommitSha ?? null,
    issue,
    reproduction: meta.reproduction,
    blocked: (meta.blocked ?? []).length > 0,
    tests: meta.tests,
  };
}
