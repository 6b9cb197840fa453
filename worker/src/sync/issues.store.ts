import { issues, type Db } from "@fixloop/db";
import { issueColumns, type GithubIssue } from "@fixloop/runtime";

export { issueColumns, labelNames, type GithubIssue } from "@fixloop/runtime";

/** Inserts or refreshes issues of one repository (see `issues.upsertSynced`), 200 rows a statement. */
export async function upsertIssues(
  db: Db,
  userId: string,
  repositoryId: string | null,
  repoFullName: string,
  found: GithubIssue[],
) {
  for (let i = 0; i < found.length; i += 200) {
    await issues.upsertSynced(
      db,
      userId,
      { id: repositoryId, fullName: repoFullName },
      found.slice(i, i + 200).map(issueColumns),
    );
  }
}
