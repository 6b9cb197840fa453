import type { Db } from "@fixloop/db";

/** Whether the user's upstream pull requests open as drafts. */
export async function draftPullRequests(db: Db, userId: string): Promise<boolean> {
  const row = await db
    .selectFrom("users")
    .select("draft_pull_requests")
    .where("id", "=", userId)
    .executeTakeFirstOrThrow();
  return row.draft_pull_requests;
}

export async function setDraftPullRequests(db: Db, userId: string, draft: boolean): Promise<void> {
  await db
    .updateTable("users")
    .set({ draft_pull_requests: draft, updated_at: new Date() })
    .where("id", "=", userId)
    .execute();
}
