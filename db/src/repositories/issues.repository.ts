import type { Db } from "../client";

/** The issue a user already imported from `repoFullName`, with its fork, if any. */
export async function importedIssue(db: Db, userId: string, repoFullName: string, issueNumber: number) {
  return db
    .selectFrom("issues")
    .select(["id", "fork_full_name", "is_imported"])
    .where("user_id", "=", userId)
    .where("repo_full_name", "=", repoFullName)
    .where("issue_number", "=", issueNumber)
    .executeTakeFirst();
}
