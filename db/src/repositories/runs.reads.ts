import { sql } from "kysely";
import { ACTIVE_RUN_STATUSES, type ErrorBody } from "@fixloop/contract";
import type { SolveRun } from "../schema";
import { isUuid, type Conn } from "./conn";
import { issueOnGithub } from "./issues.reads";
import { askedByUser } from "./runs.kinds";

/** The run by id (the one run-by-id read). */
export async function load(db: Conn, runId: string): Promise<SolveRun | undefined> {
  return db.selectFrom("solve_runs").selectAll().where("id", "=", runId).executeTakeFirst();
}

/** A run known to exist (a missing one is a bug and throws). */
export async function loadExisting(db: Conn, runId: string): Promise<SolveRun> {
  const run = await load(db, runId);
  if (!run) throw new Error(`run ${runId} does not exist`);
  return run;
}

/** A run of the user's, or undefined (another user's run is indistinguishable from a missing one). */
export async function findOwned(db: Conn, userId: string, runId: string): Promise<SolveRun | undefined> {
  if (!isUuid(runId)) return undefined;
  const run = await load(db, runId);
  return run?.user_id === userId ? run : undefined;
}

/** Whether the user asked to cancel the run. */
export async function cancelRequested(db: Conn, runId: string): Promise<boolean> {
  const r = await db.selectFrom("solve_runs").select("cancel_requested_at").where("id", "=", runId).executeTakeFirst();
  return Boolean(r?.cancel_requested_at);
}

/** Why the run was asked to stop, as its first cancel request said; null when none said (or none was made). */
export async function cancelReasonOf(db: Conn, runId: string): Promise<ErrorBody | null> {
  const r = await db
    .selectFrom("solve_runs")
    .select(["cancel_error_code", "cancel_error_message"])
    .where("id", "=", runId)
    .executeTakeFirst();
  return r?.cancel_error_code && r.cancel_error_message
    ? { code: r.cancel_error_code, message: r.cancel_error_message }
    : null;
}

/** The issue's active run, if any, and whether it is being cancelled. */
export async function activeOf(db: Conn, issueId: string) {
  return db
    .selectFrom("solve_runs")
    .select(["id", "cancel_requested_at"])
    .where("issue_id", "=", issueId)
    .where("status", "in", ACTIVE_RUN_STATUSES)
    .executeTakeFirst();
}

/**
 * The solve and refine runs still queued or running of every user's row of issue `issueNumber` of
 * the repository with GitHub id `repositoryId` that is marked gone from GitHub (a backtest's solves
 * of past issues are its own).
 */
export async function activeOfGoneIssue(
  db: Conn,
  repositoryId: number | string,
  issueNumber: number,
): Promise<SolveRun[]> {
  return db
    .selectFrom("solve_runs")
    .innerJoin("issues", "issues.id", "solve_runs.issue_id")
    .selectAll("solve_runs")
    .where(issueOnGithub(repositoryId, issueNumber))
    .where("issues.gone", "is not", null)
    .where("solve_runs.status", "in", ACTIVE_RUN_STATUSES)
    .where(askedByUser)
    .orderBy("solve_runs.created_at")
    .execute();
}

/**
 * Solve and refine runs still queued or running of issues whose repository left their user's list
 * (the repository sync removed it, GitHub no longer showing it to them: `repository_left_at`), of
 * the user `userId`, or of every user without it. Imported issues are left out: they are solved in
 * the user's fork, whatever becomes of the upstream in their list; so are backtest runs (the
 * removal ends them).
 */
export async function activeOfLeftRepositories(db: Conn, userId?: string): Promise<SolveRun[]> {
  let query = db
    .selectFrom("solve_runs")
    .innerJoin("issues", "issues.id", "solve_runs.issue_id")
    .innerJoin("repositories as issue_access", (join) =>
      join
        .onRef("issue_access.user_id", "=", "issues.user_id")
        .onRef("issue_access.github_id", "=", "issues.repository_github_id"),
    )
    .selectAll("solve_runs")
    .where("issue_access.left_at", "is not", null)
    .where("issues.is_imported", "=", false)
    .where("solve_runs.status", "in", ACTIVE_RUN_STATUSES)
    .where(askedByUser);
  if (userId !== undefined) query = query.where("issues.user_id", "=", userId);
  return query.orderBy("solve_runs.created_at").execute();
}

/** The solution's refinement still queued or running, if any. */
export async function activeRefineOf(db: Conn, solutionId: string) {
  return db
    .selectFrom("solve_runs")
    .select(["id"])
    .where("solution_id", "=", solutionId)
    .where("kind", "=", "refine")
    .where("status", "in", ACTIVE_RUN_STATUSES)
    .executeTakeFirst();
}

/** Unfinished runs older than `graceSeconds`, oldest first (at most 500). */
export async function unfinishedOlderThan(db: Conn, graceSeconds: number): Promise<string[]> {
  const rows = await db
    .selectFrom("solve_runs")
    .select(["id"])
    .where("status", "in", ACTIVE_RUN_STATUSES)
    .where("created_at", "<", sql<Date>`now() - make_interval(secs => ${graceSeconds})`)
    .orderBy("created_at")
    .limit(500)
    .execute();
  return rows.map((r) => r.id);
}

/** The input of the solution's latest refine run (the refinement history so far). */
export async function latestRefineInput(db: Conn, solutionId: string): Promise<unknown> {
  const previous = await db
    .selectFrom("solve_runs")
    .select("input")
    .where("solution_id", "=", solutionId)
    .where("kind", "=", "refine")
    .orderBy("created_at", "desc")
    .limit(1)
    .executeTakeFirst();
  return previous?.input;
}

/** The model a run used. */
export async function modelOf(db: Conn, runId: string): Promise<string | undefined> {
  const r = await db.selectFrom("solve_runs").select("model_id").where("id", "=", runId).executeTakeFirst();
  return r?.model_id;
}
