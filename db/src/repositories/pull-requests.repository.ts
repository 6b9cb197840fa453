import type { Kysely, Transaction } from "kysely";
import type { Database } from "../schema";

type Conn = Kysely<Database> | Transaction<Database>;

/** The refusal shared by a new solve and an approval while another pull request of the issue is open. */
export { OPEN_PULL_REQUEST_MESSAGE } from "../domain/statuses";

/**
 * The open pull request of an issue, if any, other than the one of `exceptSolutionId`. A second
 * solution must not replace it: its branch would be force-updated and the first fix lost.
 */
export async function findOpenPullRequestForIssue(
  db: Conn,
  issueId: string,
  exceptSolutionId?: string,
): Promise<{ html_url: string; pr_number: number } | undefined> {
  let q = db
    .selectFrom("pull_requests")
    .select(["html_url", "pr_number"])
    .where("issue_id", "=", issueId)
    .where("status", "=", "open");
  if (exceptSolutionId) q = q.where("solution_id", "<>", exceptSolutionId);
  return q.executeTakeFirst();
}
