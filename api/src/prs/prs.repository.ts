import { pullRequestMetadata, type Db } from "@fixloop/db";

/** The user's pull requests, newest first, their metadata decoded. */
export async function listPullRequests(db: Db, userId: string) {
  const rows = await db
    .selectFrom("pull_requests")
    .selectAll()
    .where("user_id", "=", userId)
    .orderBy("created_at", "desc")
    .limit(500)
    .execute();
  return rows.map((r) => ({ ...r, metadata: pullRequestMetadata.read(r.metadata) }));
}
export type PullRequestRow = Awaited<ReturnType<typeof listPullRequests>>[number];
