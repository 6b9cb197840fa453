import { ANSWERING_SOLUTION_STATUSES, type FileChange, type IssueGone } from "@fixloop/contract";
import type { Solution } from "../schema";
import { isUuid, type Conn } from "./conn";
import { repositoryLeftAt } from "./issues.reads";
import { filesChanged, solutionMetadata, type SolutionMetadata } from "./json-columns";

export interface SolutionIssue {
  id: string;
  title: string;
  issue_number: number;
  repo_full_name: string;
  status: string;
  /** Imported issues are solved in the user's fork, whatever becomes of the upstream in their list. */
  is_imported: boolean;
  /** When the repository sync removed the issue's repository from the user's list (null: listed). */
  repository_left_at: Date | null;
  /** GitHub no longer has the issue here (deleted, or transferred to `moved_to`). */
  gone: IssueGone | null;
  moved_to: string | null;
}

/** A solution row with its JSON columns decoded. */
export type SolutionRow = Omit<Solution, "metadata" | "files_changed"> & {
  metadata: SolutionMetadata;
  files_changed: FileChange[];
};

export interface OwnedSolution {
  solution: SolutionRow;
  issue: SolutionIssue;
}

const ISSUE_COLS = [
  "issues.id as i_id",
  "issues.title as i_title",
  "issues.issue_number as i_number",
  "issue_repo.full_name as i_repo",
  "issues.status as i_status",
  "issues.is_imported as i_imported",
  repositoryLeftAt.as("i_left_at"),
  "issues.gone as i_gone",
  "issues.moved_to as i_moved_to",
] as const;

/** The solution with its JSON columns decoded. */
export function decodeSolution<R extends Pick<Solution, "metadata" | "files_changed">>(
  row: R,
): Omit<R, "metadata" | "files_changed"> & { metadata: SolutionMetadata; files_changed: FileChange[] } {
  return { ...row, metadata: solutionMetadata.read(row.metadata), files_changed: filesChanged.read(row.files_changed) };
}

function split(
  row: Solution & {
    i_id: string;
    i_title: string;
    i_number: number;
    i_repo: string;
    i_status: string;
    i_imported: boolean;
    i_left_at: Date | null;
    i_gone: IssueGone | null;
    i_moved_to: string | null;
  },
): OwnedSolution {
  const { i_id, i_title, i_number, i_repo, i_status, i_imported, i_left_at, i_gone, i_moved_to, ...solution } = row;
  return {
    solution: decodeSolution(solution),
    issue: {
      id: i_id,
      title: i_title,
      issue_number: i_number,
      repo_full_name: i_repo,
      status: i_status,
      is_imported: i_imported,
      repository_left_at: i_left_at,
      gone: i_gone,
      moved_to: i_moved_to,
    },
  };
}

/** The user's solution with its issue; undefined for another user's, a deleted or a missing one. */
export async function findOwned(db: Conn, userId: string, id: string): Promise<OwnedSolution | undefined> {
  if (!isUuid(id)) return undefined;
  const row = await db
    .selectFrom("solutions")
    .innerJoin("issues", "issues.id", "solutions.issue_id")
    .innerJoin("github_repositories as issue_repo", "issue_repo.github_id", "issues.repository_github_id")
    .leftJoin("repositories as issue_access", (join) =>
      join
        .onRef("issue_access.user_id", "=", "issues.user_id")
        .onRef("issue_access.github_id", "=", "issues.repository_github_id"),
    )
    .selectAll("solutions")
    .select(ISSUE_COLS)
    .where("solutions.id", "=", id)
    .where("solutions.user_id", "=", userId)
    .where("solutions.status", "!=", "deleted")
    .executeTakeFirst();
  return row && split(row);
}

/** findOwned inside a transaction, with the row locked until it ends so concurrent changes queue. */
export async function lockOwned(trx: Conn, userId: string, id: string): Promise<OwnedSolution | undefined> {
  if (!isUuid(id)) return undefined;
  await trx
    .selectFrom("solutions")
    .select("id")
    .where("id", "=", id)
    .where("user_id", "=", userId)
    .forUpdate()
    .execute();
  return findOwned(trx, userId, id);
}

/** The user's solutions still awaiting an answer (approved ones stay until their pull request exists), newest first. */
export async function listAnswering(db: Conn, userId: string): Promise<OwnedSolution[]> {
  const rows = await db
    .selectFrom("solutions")
    .innerJoin("issues", "issues.id", "solutions.issue_id")
    .innerJoin("github_repositories as issue_repo", "issue_repo.github_id", "issues.repository_github_id")
    .leftJoin("repositories as issue_access", (join) =>
      join
        .onRef("issue_access.user_id", "=", "issues.user_id")
        .onRef("issue_access.github_id", "=", "issues.repository_github_id"),
    )
    .selectAll("solutions")
    .select(ISSUE_COLS)
    .where("solutions.user_id", "=", userId)
    .where("solutions.status", "in", ANSWERING_SOLUTION_STATUSES)
    .orderBy("solutions.created_at", "desc")
    .limit(200)
    .execute();
  return rows.map(split);
}

/** The issue's newest solution still awaiting the user's review (pending), if any. */
export async function awaitingReviewOf(db: Conn, issueId: string): Promise<string | undefined> {
  const r = await db
    .selectFrom("solutions")
    .select("id")
    .where("issue_id", "=", issueId)
    .where("status", "=", "pending")
    .orderBy("created_at", "desc")
    .limit(1)
    .executeTakeFirst();
  return r?.id;
}

/** The user's solution (deleted ones excluded), decoded. */
export async function findOfUser(db: Conn, userId: string, id: string): Promise<SolutionRow | undefined> {
  const row = await db
    .selectFrom("solutions")
    .selectAll()
    .where("id", "=", id)
    .where("user_id", "=", userId)
    .where("status", "!=", "deleted")
    .executeTakeFirst();
  return row && decodeSolution(row);
}

/** The solution's original run and current changes (what a refine run starts from). */
export async function refineSource(db: Conn, solutionId: string) {
  const row = await db
    .selectFrom("solutions")
    .select(["run_id", "files_changed"])
    .where("id", "=", solutionId)
    .executeTakeFirst();
  return row && { runId: row.run_id, filesChanged: filesChanged.read(row.files_changed) };
}

export interface PreviousVersion {
  /** Revision the latest refinement started from. */
  revision: number;
  /** Feedback the latest refinement answered. */
  feedback: string | null;
  files: { filename: string; action: FileChange["action"]; content: string }[];
}

/** The version before the solution's latest refinement, so a reviewer sees what that refinement changed. */
export async function previousVersion(db: Conn, solutionId: string): Promise<PreviousVersion | null> {
  const latest = await db
    .selectFrom("solution_revisions")
    .select(["revision", "feedback"])
    .where("solution_id", "=", solutionId)
    .where("kind", "=", "refinement")
    .orderBy("revision", "desc")
    .limit(1)
    .executeTakeFirst();
  if (!latest) return null;
  const before = await db
    .selectFrom("solution_revisions")
    .select(["revision", "files_changed"])
    .where("solution_id", "=", solutionId)
    .where("revision", "<", latest.revision)
    .orderBy("revision", "desc")
    .limit(1)
    .executeTakeFirst();
  if (!before) return null;
  return {
    revision: before.revision,
    feedback: latest.feedback,
    files: filesChanged
      .read(before.files_changed)
      .map((f) => ({ filename: f.filename, action: f.action, content: f.content })),
  };
}
