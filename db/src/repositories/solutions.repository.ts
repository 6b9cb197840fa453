import { sql, type Kysely, type Transaction } from "kysely";
import { type DecidedSolutionStatus, type FileChange } from "@fixloop/contract";
import type { Database } from "../schema";
import { ClaimLost, fenced, type Claim } from "./claims";
import * as issues from "./issues.repository";
import { filesChanged, solutionMetadata, type SolutionMetadata } from "./json-columns";

type Conn = Kysely<Database> | Transaction<Database>;

/** What a finished run proposes. */
export interface Proposal {
  analysis: string;
  proposedSolution: string;
  model: string;
  confidence: number;
  filesChanged: FileChange[];
  metadata: SolutionMetadata;
}

/** The columns a proposal fills, the same on the solution and on its revision; JSON ones checked (JsonColumnError). */
function proposalColumns(p: Proposal) {
  const files = filesChanged.write(p.filesChanged);
  return {
    solution: {
      analysis: p.analysis,
      proposed_solution: p.proposedSolution,
      ai_model: p.model,
      confidence: p.confidence,
      files_changed: files,
      metadata: solutionMetadata.write(p.metadata),
    },
    revision: { files_changed: files, analysis: p.analysis, proposed_solution: p.proposedSolution },
  };
}

/** A solve run's outcome: a new solution at revision 1, its first revision recorded, the issue solved. */
export async function recordGenerated(
  trx: Transaction<Database>,
  run: { id: string; user_id: string; issue_id: string },
  p: Proposal & { baseCommitSha: string | null },
): Promise<string> {
  const cols = proposalColumns(p);
  const s = await trx
    .insertInto("solutions")
    .values({
      user_id: run.user_id,
      issue_id: run.issue_id,
      run_id: run.id,
      ...cols.solution,
      base_commit_sha: p.baseCommitSha,
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  await trx
    .insertInto("solution_revisions")
    .values({ solution_id: s.id, revision: 1, kind: "generated", ...cols.revision, run_id: run.id })
    .execute();
  await issues.markSolved(trx, run.issue_id);
  return s.id;
}

/** What a finishing refinement checks its solution against, with the row locked until commit. */
export async function lockForRefinement(trx: Transaction<Database>, solutionId: string) {
  return trx
    .selectFrom("solutions")
    .select(["status", "revision", "refinement_count"])
    .where("id", "=", solutionId)
    .forUpdate()
    .executeTakeFirstOrThrow();
}

/** A refine run's outcome: the solution's next revision, recorded with the feedback that asked for it. */
export async function recordRefinement(
  trx: Transaction<Database>,
  runId: string,
  solutionId: string,
  p: Proposal & { refinementCount: number; feedback: string | null },
): Promise<string> {
  const cols = proposalColumns(p);
  const s = await trx
    .updateTable("solutions")
    .set({
      ...cols.solution,
      refinement_count: p.refinementCount,
      revision: sql`revision + 1`,
      updated_at: new Date(),
    })
    .where("id", "=", solutionId)
    .returning(["id", "revision"])
    .executeTakeFirstOrThrow();
  await trx
    .insertInto("solution_revisions")
    .values({
      solution_id: s.id,
      revision: s.revision,
      kind: "refinement",
      ...cols.revision,
      feedback: p.feedback,
      run_id: runId,
    })
    .execute();
  return s.id;
}

/** Keeps a solution's current contents as its revision history, once, before a first edit or refinement replaces them. */
export async function keepCurrentRevision(
  trx: Transaction<Database>,
  s: {
    id: string;
    revision: number;
    refinement_count: number;
    files_changed: FileChange[];
    analysis: string;
    proposed_solution: string;
    run_id: string | null;
  },
): Promise<void> {
  await trx
    .insertInto("solution_revisions")
    .values({
      solution_id: s.id,
      revision: s.revision,
      kind: s.refinement_count > 0 ? "refinement" : "generated",
      files_changed: filesChanged.write(s.files_changed),
      analysis: s.analysis,
      proposed_solution: s.proposed_solution,
      run_id: s.run_id,
    })
    .onConflict((oc) => oc.columns(["solution_id", "revision"]).doNothing())
    .execute();
}

/** A manual edit: the solution's next revision with the edited files and the checks made on them. */
export async function recordManualEdit(
  trx: Transaction<Database>,
  solution: { id: string; revision: number; analysis: string; proposed_solution: string },
  edit: {
    filesChanged: FileChange[];
    metadata: SolutionMetadata;
    reason: string;
    /** New explanation (switching to another candidate brings its own); unchanged when absent. */
    words?: { analysis: string; proposedSolution: string };
  },
): Promise<number> {
  const revision = solution.revision + 1;
  const files = filesChanged.write(edit.filesChanged);
  const metadata = solutionMetadata.write(edit.metadata);
  await trx
    .insertInto("solution_revisions")
    .values({
      solution_id: solution.id,
      revision,
      kind: "manual",
      files_changed: files,
      analysis: edit.words?.analysis ?? solution.analysis,
      proposed_solution: edit.words?.proposedSolution ?? solution.proposed_solution,
      reason: edit.reason,
    })
    .execute();
  await trx
    .updateTable("solutions")
    .set({
      files_changed: files,
      revision,
      metadata,
      ...(edit.words ? { analysis: edit.words.analysis, proposed_solution: edit.words.proposedSolution } : {}),
      updated_at: sql`now()`,
    })
    .where("id", "=", solution.id)
    .execute();
  return revision;
}

/** The user's decision, recorded; a rejected solution leaves its issue unsolved (open again). */
export async function decide(
  trx: Transaction<Database>,
  solution: { id: string; issue_id: string },
  userId: string,
  decision: { status: DecidedSolutionStatus; comments: string | null },
): Promise<void> {
  await trx
    .insertInto("validation_decisions")
    .values({ solution_id: solution.id, user_id: userId, status: decision.status, comments: decision.comments })
    .execute();
  await trx
    .updateTable("solutions")
    .set({ status: decision.status, updated_at: sql`now()` })
    .where("id", "=", solution.id)
    .execute();
  if (decision.status === "rejected") await issues.reopen(trx, solution.issue_id);
}

/** Deletes a solution (kept as `deleted`) in the caller's transaction; its issue is open again when no other answer is left. */
export async function remove(trx: Transaction<Database>, solution: { id: string; issue_id: string }): Promise<void> {
  await trx
    .updateTable("solutions")
    .set({ status: "deleted", updated_at: sql`now()` })
    .where("id", "=", solution.id)
    .execute();
  await issues.reopenIfUnanswered(trx, solution.issue_id);
}

/** Its pull request was opened: → pr_created. */
export async function markPullRequestCreated(db: Conn, solutionId: string): Promise<void> {
  await db
    .updateTable("solutions")
    .set({ status: "pr_created", updated_at: sql`now()` })
    .where("id", "=", solutionId)
    .execute();
}

/**
 * Serialises the decisions on one issue's solutions until the transaction ends (an advisory lock,
 * so it cannot deadlock with the row locks of the solution or the issue).
 */
export async function lockIssueDecisions(trx: Transaction<Database>, issueId: string): Promise<void> {
  await sql`select pg_advisory_xact_lock(hashtext(${`issue-decision:${issueId}`}))`.execute(trx);
}

/** Another solution of the issue that holds it: approved, its pull request being opened. */
export async function approvedRival(db: Conn, issueId: string, solutionId: string): Promise<string | undefined> {
  const r = await db
    .selectFrom("solutions")
    .select("id")
    .where("issue_id", "=", issueId)
    .where("id", "<>", solutionId)
    .where("status", "=", "approved")
    .executeTakeFirst();
  return r?.id;
}

/**
 * An approval whose pull request could not be opened goes back to pending (and frees the issue);
 * false when it was not approved. With the pull-request job's claim: ClaimLost once another worker took the job.
 */
export async function returnToPending(db: Conn, solutionId: string, claim?: Claim): Promise<boolean> {
  const r = await fenced(db, claim, (trx) =>
    trx
      .updateTable("solutions")
      .set({ status: "pending", updated_at: sql`now()` })
      .where("id", "=", solutionId)
      .where("status", "=", "approved")
      .where((eb) =>
        eb.not(eb.exists(eb.selectFrom("pull_requests").select("id").where("solution_id", "=", solutionId))),
      )
      .executeTakeFirst(),
  );
  return r.numUpdatedRows > 0n;
}

/**
 * Takes the tests re-run of the solution's `revision` for this worker attempt (`token`), while the
 * solution is still pending at that revision: an attempt that took it before writes nothing more.
 * FOR UPDATE first, so this waits for that attempt's fenced writes. Null when there is nothing to re-run.
 */
export async function claimTestsRerun(
  db: Conn,
  solutionId: string,
  revision: number,
  token: string,
): Promise<Claim | null> {
  const r = await db
    .updateTable("solutions")
    .set({ tests_claim_token: token })
    .where("id", "=", (eb) =>
      eb
        .selectFrom("solutions")
        .select("id")
        .where("id", "=", solutionId)
        .where("revision", "=", revision)
        .where("status", "=", "pending")
        .forUpdate(),
    )
    .executeTakeFirst();
  return Number(r.numUpdatedRows) === 1 ? { kind: "testsRerun", id: solutionId, token } : null;
}

/**
 * Takes the solution's pull-request job (opening its pull request, or pushing a revision to it) for
 * this worker attempt: an attempt that took it before writes nothing more (see claimTestsRerun).
 * Null for a solution that does not exist.
 */
export async function claimPullRequest(db: Conn, solutionId: string, token: string): Promise<Claim | null> {
  const r = await db
    .updateTable("solutions")
    .set({ pr_claim_token: token })
    .where("id", "=", (eb) => eb.selectFrom("solutions").select("id").where("id", "=", solutionId).forUpdate())
    .executeTakeFirst();
  return Number(r.numUpdatedRows) === 1 ? { kind: "pullRequest", id: solutionId, token } : null;
}
/**
 * Replaces the solution's test evidence (`metadata.tests`) and the verdict drawn from it (whether
 * it is unverified, and whether the reproduction test passes) only while it is still at `revision`:
 * a later edit made this evidence stale before it landed. False when it was not replaced; ClaimLost
 * when the re-run's claim (see solutions.claimTestsRerun) is no longer on the solution: another
 * worker took this re-run since, and its evidence is the one that lands.
 */
export async function replaceTests(
  db: Kysely<Database>,
  claim: Claim,
  revision: number,
  tests: unknown,
  verdict: { unverified: unknown; reproduction: unknown },
): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    const row = await trx
      .selectFrom("solutions")
      .select(["metadata", "revision", "status", "tests_claim_token"])
      .where("id", "=", claim.id)
      .forUpdate()
      .executeTakeFirst();
    // A newer revision's re-run took the claim over: superseded, not lost.
    if (!row || row.revision !== revision || row.status !== "pending") return false;
    if (row.tests_claim_token !== claim.token || claim.kind !== "testsRerun")
      throw new ClaimLost(claim.id, "the tests re-run of solution");
    const { unverified: _was, ...before } = solutionMetadata.read(row.metadata);
    const metadata = solutionMetadata.write({
      ...before,
      tests,
      ...(verdict.unverified ? { unverified: verdict.unverified } : {}),
      ...(verdict.reproduction ? { reproduction: verdict.reproduction } : {}),
    });
    await trx
      .updateTable("solutions")
      .set({ metadata, updated_at: sql`now()` })
      .where("id", "=", claim.id)
      .execute();
    return true;
  });
}

export * from "./solutions.reads";
