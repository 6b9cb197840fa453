import { sql, type Kysely } from "kysely";
import type { Database, Issue } from "../schema";
import type { FileChange } from "@fixloop/contract";
import { ClaimLost, type Claim } from "./claims";
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
  const issue = await db.selectFrom("issues").selectAll().where("id", "=", row.issue_id).executeTakeFirst();
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

/**
 * Replaces the solution's test evidence (`metadata.tests`) and the verdict drawn from it (whether
 * it is unverified, and whether the reproduction test passes) only while it is still at `revision`:
 * a later edit made this evidence stale before it landed. False when it was not replaced; ClaimLost
 * when the re-run's claim (see solutions.claimTestsRerun) is no longer on the solution: another
 * worker took this re-run since, and its evidence is the one that lands.
 */
export async function replaceTests(
  db: Kysely<Database>,
  claim: Claim,
  revision: number,
  tests: unknown,
  verdict: { unverified: unknown; reproduction: unknown },
): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    const row = await trx
      .selectFrom("solutions")
      .select(["metadata", "revision", "status", "tests_claim_token"])
      .where("id", "=", claim.id)
      .forUpdate()
      .executeTakeFirst();
    // A newer revision's re-run took the claim over: superseded, not lost.
    if (!row || row.revision !== revision || row.status !== "pending") return false;
    if (row.tests_claim_token !== claim.token || claim.kind !== "testsRerun")
      throw new ClaimLost(claim.id, "the tests re-run of solution");
    const { unverified: _was, ...before } = solutionMetadata.read(row.metadata);
    const metadata = solutionMetadata.write({
      ...before,
      tests,
      ...(verdict.unverified ? { unverified: verdict.unverified } : {}),
      ...(verdict.reproduction ? { reproduction: verdict.reproduction } : {}),
    });
    await trx
      .updateTable("solutions")
      .set({ metadata, updated_at: sql`now()` })
      .where("id", "=", claim.id)
      .execute();
    return true;
  });
}
