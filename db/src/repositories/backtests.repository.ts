import { ClaimLost } from "./runs.claims";
import { sql, type Transaction } from "kysely";
import { z } from "zod";
import { ACTIVE_RUN_STATUSES, BacktestIssue, solveFigures, type TrustCard } from "@fixloop/contract";
import type { Database } from "../schema";
import { inTransaction, type Conn } from "./conn";
import { endOfBacktest } from "./runs.repository";
import { jsonColumn } from "./json-columns";

/** `repository_backtests.issues`: one entry per past issue checked; entries that do not decode are left out. */
export const backtestIssues = jsonColumn(
  "repository_backtests.issues",
  z.array(BacktestIssue),
  z
    .array(z.unknown())
    .catch([])
    .transform((xs) => xs.flatMap((x) => BacktestIssue.safeParse(x).data ?? [])),
);

const ACTIVE = ["queued", "running"];

/**
 * Queues a backtest for a repository row; undefined when one is already queued or running there
 * (the partial unique index settles two starts at once).
 */
export async function start(
  db: Conn,
  b: { repositoryId: string; userId: string; requested: number; solve?: boolean; modelId?: string | null },
) {
  return db
    .insertInto("repository_backtests")
    .values({
      repository_id: b.repositoryId,
      user_id: b.userId,
      requested: b.requested,
      solve: b.solve ?? false,
      model_id: b.modelId ?? null,
    })
    .onConflict((oc) => oc.column("repository_id").where("status", "in", ACTIVE).doNothing())
    .returning(["id"])
    .executeTakeFirst();
}

/**
 * How long a backtest may stay queued or running before its job is taken for lost: one that solves
 * makes a model call and runs the tests three times per issue, so it is given longer.
 */
export const STALE_AFTER = { maxAgeMs: 30 * 60_000, solveMaxAgeMs: 4 * 60 * 60_000 } as const;

/**
 * Ends as failed the backtests queued or running for longer than `maxAgeMs` (their job was lost),
 * so the card stops showing them running and the repository can be backtested again; one that
 * solves is given `solveMaxAgeMs`. Those of one repository row with `repositoryId` (a new
 * backtest asked for), else of every repository (the worker's periodic sweep). Their solve runs
 * left running end with them (see runs.endOfBacktest). Answers the backtests it ended.
 */
export async function expireStale(
  db: Conn,
  scope: { repositoryId?: string } = {},
  limits: { maxAgeMs: number; solveMaxAgeMs: number } = STALE_AFTER,
): Promise<string[]> {
  const now = Date.now();
  // A running backtest is aged from its start, not from the time it waited in the queue.
  const since = sql<Date>`coalesce(started_at, created_at)`;
  return inTransaction(db, async (trx) => {
    let q = trx
      .updateTable("repository_backtests")
      .set({ status: "failed", error: "The backtest did not finish in time", finished_at: new Date() })
      .where("status", "in", ACTIVE)
      .where((eb) =>
        eb.or([
          eb.and([eb("solve", "=", false), eb(since, "<", new Date(now - limits.maxAgeMs))]),
          eb.and([eb("solve", "=", true), eb(since, "<", new Date(now - limits.solveMaxAgeMs))]),
        ]),
      );
    if (scope.repositoryId !== undefined) q = q.where("repository_id", "=", scope.repositoryId);
    const expired = await q.returning("id").execute();
    for (const b of expired) await endOfBacktest(trx, b.id);
    return expired.map((b) => b.id);
  });
}

/** A backtest with its repository's name, for the worker. */
export async function find(db: Conn, id: string) {
  return db
    .selectFrom("repository_backtests as b")
    .innerJoin("repositories as r", "r.id", "b.repository_id")
    .innerJoin("github_repositories as g", "g.github_id", "r.github_id")
    .select([
      "b.id",
      "b.user_id",
      "b.repository_id",
      "b.status",
      "b.requested",
      "b.solve",
      "b.model_id",
      "g.owner",
      "g.name",
      "g.full_name",
    ])
    .where("b.id", "=", id)
    .executeTakeFirst();
}

/**
 * The worker took the backtest: running from now, with nothing counted yet (a retry starts over),
 * under this attempt's claim `token` (a worker that held it before writes nothing more of it).
 * False when it already ended (expired while queued): the worker leaves it alone.
 */
export async function begin(db: Conn, id: string, token?: string): Promise<boolean> {
  const r = await db
    .updateTable("repository_backtests")
    .set({
      status: "running",
      started_at: new Date(),
      found: 0,
      checked: 0,
      found_at_1: 0,
      found_at_5: 0,
      issues: "[]",
      claim_token: token ?? null,
    })
    .where("id", "=", id)
    .where("status", "in", ACTIVE)
    .executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

export interface BacktestProgress {
  found: number;
  checked: number;
  foundAt1: number;
  foundAt5: number;
  issues: BacktestIssue[];
}

/**
 * Stores what the backtest has counted so far (the page shows it while it runs). False when it is
 * no longer running (it was ended as not finishing in time): the worker stops, spending nothing more.
 */
export async function progress(db: Conn, id: string, p: BacktestProgress, token?: string): Promise<boolean> {
  let q = db
    .updateTable("repository_backtests")
    .set({
      found: p.found,
      checked: p.checked,
      found_at_1: p.foundAt1,
      found_at_5: p.foundAt5,
      issues: backtestIssues.write(p.issues),
    })
    .where("id", "=", id)
    .where("status", "=", "running");
  if (token !== undefined) q = q.where("claim_token", "=", token);
  if (Number((await q.executeTakeFirst()).numUpdatedRows) === 1) return true;
  // Not written: ended (false), or begun again by another worker (ClaimLost).
  if (token !== undefined) await holdBacktestClaim(db, id, token);
  return false;
}

/**
 * Ends a backtest still queued or running: done, or failed with the reason shown on the card (an
 * ended one keeps its end). Either way, its solve runs left running end with it (see
 * runs.endOfBacktest); a new one can no longer start (see startSolveRun).
 */
export async function finish(
  db: Conn,
  id: string,
  outcome: { error: string | null },
  /** The worker's claim (ClaimLost when another worker began the backtest since); none when BullMQ gave the job up. */
  token?: string,
): Promise<void> {
  await inTransaction(db, async (trx) => {
    if (token !== undefined) await holdBacktestClaim(trx, id, token);
    await trx
      .updateTable("repository_backtests")
      .set({ status: outcome.error === null ? "done" : "failed", error: outcome.error, finished_at: new Date() })
      .where("id", "=", id)
      .where("status", "in", ACTIVE)
      .execute();
    // Also when it had ended already: a run is ended once, whichever end comes first.
    await endOfBacktest(trx, id);
  });
}

/** Why a backtest ends when its repository leaves the user's list (access withdrawn, repository deleted). */
export const REPOSITORY_REMOVED = "The repository left your list before the backtest finished";

/**
 * Ends, failed, every backtest still queued or running of the user's repository rows leaving their
 * list, and every solve run of any of their backtests still queued or running (see
 * runs.endOfBacktest), each once and with its quota unit given back. Run in the transaction that
 * marks the rows left, after locking them; the backtests stay, ended, for their trust card.
 */
export async function endOfRepositories(trx: Transaction<Database>, repositoryIds: string[]): Promise<string[]> {
  if (repositoryIds.length === 0) return [];
  // Waits for a solve being started (it holds its backtest row) so that run is ended below too.
  await trx
    .updateTable("repository_backtests")
    .set({ status: "failed", error: REPOSITORY_REMOVED, finished_at: new Date() })
    .where("repository_id", "in", repositoryIds)
    .where("status", "in", ACTIVE)
    .execute();
  const left = await trx
    .selectFrom("solve_runs")
    .select("backtest_id")
    .distinct()
    .where("backtest_id", "in", (eb) =>
      eb.selectFrom("repository_backtests").select("id").where("repository_id", "in", repositoryIds),
    )
    .where("status", "in", ACTIVE_RUN_STATUSES)
    .execute();
  const ended: string[] = [];
  for (const { backtest_id } of left) if (backtest_id) ended.push(...(await endOfBacktest(trx, backtest_id)));
  return ended;
}

type Row = {
  id: string;
  status: string;
  requested: number;
  found: number;
  checked: number;
  found_at_1: number;
  found_at_5: number;
  solve: boolean;
  issues: unknown;
  error: string | null;
  created_at: Date;
  finished_at: Date | null;
};

const toCard = (r: Row): TrustCard => {
  const issues = backtestIssues.read(r.issues);
  return {
    id: r.id,
    status: r.status as TrustCard["status"],
    requested: r.requested,
    found: r.found,
    checked: r.checked,
    foundAt1: r.found_at_1,
    foundAt5: r.found_at_5,
    solve: r.solve,
    ...solveFigures(issues),
    error: r.error,
    createdAt: r.created_at.toISOString(),
    finishedAt: r.finished_at?.toISOString() ?? null,
    issues,
  };
};

/**
 * The trust card of the user's repository `owner/repo` (case-insensitive): the latest finished
 * backtest (`card`), the latest one of any status (`latest`: running, or failed); undefined when
 * the user has no such repository.
 */
export async function cardOf(db: Conn, userId: string, fullName: string) {
  const repo = await db
    .selectFrom("repositories")
    .innerJoin("github_repositories as g", "g.github_id", "repositories.github_id")
    .select(["repositories.id"])
    .where("repositories.user_id", "=", userId)
    .where("repositories.left_at", "is", null)
    .where(sql<string>`lower(g.full_name)`, "=", fullName.toLowerCase())
    .executeTakeFirst();
  if (!repo) return undefined;
  const base = db
    .selectFrom("repository_backtests")
    .select([
      "id",
      "status",
      "requested",
      "found",
      "checked",
      "found_at_1",
      "found_at_5",
      "solve",
      "issues",
      "error",
      "created_at",
      "finished_at",
    ])
    .where("repository_id", "=", repo.id)
    .orderBy("created_at", "desc")
    .orderBy("id", "desc")
    .limit(1);
  // The latest first, then the card: read at once (or the other way round), a backtest finishing
  // between the two reads showed as the latest, done, beside no card or an older one.
  const latest = await base.executeTakeFirst();
  const done = latest?.status === "done" ? latest : await base.where("status", "=", "done").executeTakeFirst();
  return { repositoryId: repo.id, card: done ? toCard(done) : null, latest: latest ? toCard(latest) : null };
}

/**
 * ClaimLost when the backtest is still queued or running under another claim than `token`: it is
 * another worker's to write. An ended backtest is no one's (its end is kept, see finish).
 */
export async function holdBacktestClaim(db: Conn, id: string, token: string): Promise<void> {
  const row = await db
    .selectFrom("repository_backtests")
    .select(["claim_token", "status"])
    .where("id", "=", id)
    .forKeyShare()
    .executeTakeFirst();
  if (row && (ACTIVE as readonly string[]).includes(row.status) && row.claim_token !== token) throw new ClaimLost(id);
}

/** Gives the backtest's claim up (its worker lost the job's lock; its solve runs go on in their own jobs). */
export async function releaseClaim(db: Conn, id: string, token: string): Promise<void> {
  await db
    .updateTable("repository_backtests")
    .set({ claim_token: null })
    .where("id", "=", id)
    .where("claim_token", "=", token)
    .execute();
}
