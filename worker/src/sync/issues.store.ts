import { issues, type Db } from "@fixloop/db";
import { issueColumns, type GithubIssue } from "@fixloop/runtime";

export { issueColumns, labelNames, type GithubIssue } from "@fixloop/runtime";

/** Inserts or refreshes issues of one repository (see `issues.upsertSynced`), 200 rows a statement. */
export async function upsertIssues(
  db: Db,
  userId: string,
  repo: { id: string | null; githubId: number | string },
  found: GithubIssue[],
) {
  for (let i = 0; i < found.length; i += 200) {
    await issues.upsertSynced(db, userId, repo, found.slice(i, i + 200).map(issueColumns));
  }
}
