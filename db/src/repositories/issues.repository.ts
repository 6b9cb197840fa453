import { sql, type Kysely, type Transaction } from "kysely";
import { ANSWERING_SOLUTION_STATUSES } from "../domain/statuses";
import type { Database } from "../schema";

type Conn = Kysely<Database> | Transaction<Database>;

/** The issue a user already imported from `repoFullName`, with its fork, if any. */
export async function importedIssue(db: Conn, userId: string, repoFullName: string, issueNumber: number) {
  return db
    .selectFrom("issues")
    .select(["id", "fork_full_name", "is_imported"])
    .where("user_id", "=", userId)
    .where("repo_full_name", "=", repoFullName)
    .where("issue_number", "=", issueNumber)
    .executeTakeFirst();
}

/** A solve run started on the issue: → analyzing (a closed issue stays closed). */
export async function markAnalyzing(db: Conn, issueId: string): Promise<void> {
  await db
    .updateTable("issues")
    .set({ status: "analyzing", updated_at: sql`now()` })
    .where("id", "=", issueId)
    .where("status", "!=", "closed")
    .execute();
}

/** A solve run ended unfinished: analyzing → failed, or → open when it was cancelled. */
export async function endAnalysis(db: Conn, issueId: string, outcome: "failed" | "cancelled"): Promise<void> {
  await db
    .updateTable("issues")
    .set({ status: outcome === "failed" ? "failed" : "open", updated_at: sql`now()` })
    .where("id", "=", issueId)
    .where("status", "=", "analyzing")
    .execute();
}

/** A solve run produced a solution: → solved, unless the issue is closed or already has a pull request. */
export async function markSolved(db: Conn, issueId: string): Promise<void> {
  await db
    .updateTable("issues")
    .set({ status: "solved", updated_at: sql`now()` })
    .where("id", "=", issueId)
    .where("status", "in", ["analyzing", "open", "pending", "failed"])
    .execute();
}

/** Its solution was rejected: the issue is unsolved again and returns to the Open tab. */
export async function reopen(db: Conn, issueId: string): Promise<void> {
  await db
    .updateTable("issues")
    .set({ status: "open", updated_at: sql`now()` })
    .where("id", "=", issueId)
    .execute();
}

/** A solution was deleted: a solved issue with no pending or approved solution left is open again. */
export async function reopenIfUnanswered(db: Conn, issueId: string): Promise<void> {
  await db
    .updateTable("issues")
    .set({ status: "open", updated_at: sql`now()` })
    .where("id", "=", issueId)
    .where("status", "=", "solved")
    .where(({ not, exists, selectFrom }) =>
      not(
        exists(
          selectFrom("solutions")
            .select("id")
            .whereRef("issue_id", "=", "issues.id")
            .where("status", "in", ANSWERING_SOLUTION_STATUSES),
        ),
      ),
    )
    .execute();
}

/** A pull request was opened for one of its solutions: → pr_created. */
export async function markPullRequestCreated(db: Conn, issueId: string): Promise<void> {
  await db
    .updateTable("issues")
    .set({ status: "pr_created", updated_at: sql`now()` })
    .where("id", "=", issueId)
    .execute();
}
