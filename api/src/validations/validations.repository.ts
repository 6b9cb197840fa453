import { filesChanged, solutionMetadata, type Db, type Solution, type SolutionMetadata } from "@fixloop/db";
import { type FileChange, ANSWERING_SOLUTION_STATUSES } from "@fixloop/contract";
import { validationErrors } from "./validations.errors";

export interface SolutionIssue {
  id: string;
  title: string;
  issue_number: number;
  repo_full_name: string;
  status: string;
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

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const ISSUE_COLS = [
  "issues.id as i_id",
  "issues.title as i_title",
  "issues.issue_number as i_number",
  "issues.repo_full_name as i_repo",
  "issues.status as i_status",
] as const;

function split(
  row: Solution & { i_id: string; i_title: string; i_number: number; i_repo: string; i_status: string },
): OwnedSolution {
  const { i_id, i_title, i_number, i_repo, i_status, ...solution } = row;
  return {
    solution: {
      ...solution,
      metadata: solutionMetadata.read(solution.metadata),
      files_changed: filesChanged.read(solution.files_changed),
    },
    issue: { id: i_id, title: i_title, issue_number: i_number, repo_full_name: i_repo, status: i_status },
  };
}

/** The caller's solution with its issue; another user's (or a deleted) solution is 404. */
export async function findOwnedSolution(db: Db, userId: string, id: string): Promise<OwnedSolution> {
  if (!UUID.test(id)) throw validationErrors.notFound();
  const row = await db
    .selectFrom("solutions")
    .innerJoin("issues", "issues.id", "solutions.issue_id")
    .selectAll("solutions")
    .select(ISSUE_COLS)
    .where("solutions.id", "=", id)
    .where("solutions.user_id", "=", userId)
    .where("solutions.status", "!=", "deleted")
    .executeTakeFirst();
  if (!row) throw validationErrors.notFound();
  return split(row);
}

/** findOwnedSolution inside a transaction, with the row locked until it ends so concurrent changes queue. */
export async function lockOwnedSolution(trx: Db, userId: string, id: string): Promise<OwnedSolution> {
  if (!UUID.test(id)) throw validationErrors.notFound();
  await trx
    .selectFrom("solutions")
    .select("id")
    .where("id", "=", id)
    .where("user_id", "=", userId)
    .forUpdate()
    .execute();
  return findOwnedSolution(trx, userId, id);
}

export async function listPendingSolutions(db: Db, userId: string): Promise<OwnedSolution[]> {
  const rows = await db
    .selectFrom("solutions")
    .innerJoin("issues", "issues.id", "solutions.issue_id")
    .selectAll("solutions")
    .select(ISSUE_COLS)
    .where("solutions.user_id", "=", userId)
    // Approved solutions stay listed until their pull request exists, so a failed attempt can be retried.
    .where("solutions.status", "in", ANSWERING_SOLUTION_STATUSES)
    .orderBy("solutions.created_at", "desc")
    .limit(200)
    .execute();
  return rows.map(split);
}

export interface PreviousVersion {
  /** Revision the latest refinement started from. */
  revision: number;
  /** Feedback the latest refinement answered. */
  feedback: string | null;
  files: { filename: string; action: FileChange["action"]; content: string }[];
}

/** The version before the solution's latest refinement, so a reviewer sees what that refinement changed. */
export async function findPreviousVersion(db: Db, solutionId: string): Promise<PreviousVersion | null> {
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
