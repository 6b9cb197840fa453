import { sql, type Kysely } from "kysely";
import { ACTIVE_RUN_STATUSES, type ActiveRunCaps, type PlanId } from "@fixloop/contract";
import type { Database, SolveRun } from "../schema";
import type { Conn } from "./conn";
import { claim } from "./runs.repository";
import { currentUsagePeriod } from "./usage.repository";

/** Where a queued run stands among its user's runs: the user's running runs plus their queued runs created before it. */
export interface QueuePlace {
  userId: string;
  plan: PlanId;
  ahead: number;
}

export type CappedClaim =
  | { status: "claimed"; run: SolveRun }
  /** The user already runs their plan's cap: the run stays queued. */
  | { status: "deferred"; userId: string; ahead: number; cap: number }
  | { status: "ended" };

/** Serialises the cap check of one user's runs across every worker (held until the transaction ends). */
const lockUser = (db: Conn, userId: string) =>
  sql`select pg_advisory_xact_lock(hashtextextended(${`fixloop.active-runs:${userId}`}, 0))`.execute(db);

/**
 * Claims a run for this attempt (queued/running → running) unless its user already has their
 * plan's cap of runs running: the count and the transition happen in one transaction under a
 * per-user lock, so two workers never both take the user's last slot. A run already running
 * (a retry, or a job back from a stalled worker) holds its slot and is claimed again.
 */
export async function claimWithinCap(
  db: Kysely<Database>,
  runId: string,
  caps: ActiveRunCaps,
  /** This attempt's claim token (see runs.claims): written on the row when the run is claimed. */
  token: string,
): Promise<CappedClaim> {
  return db.transaction().execute(async (trx) => {
    const run = await trx
      .selectFrom("solve_runs")
      .select(["user_id", "status"])
      .where("id", "=", runId)
      .executeTakeFirst();
    if (!run || !(ACTIVE_RUN_STATUSES as readonly string[]).includes(run.status)) return { status: "ended" as const };
    if (run.status === "queued") {
      await lockUser(trx, run.user_id);
      const { plan } = await currentUsagePeriod(trx, run.user_id);
      const cap = caps[plan];
      const running = await countRunning(trx, run.user_id);
      if (running >= cap) {
        const ahead = running + (await countQueuedBefore(trx, run.user_id, runId));
        return { status: "deferred" as const, userId: run.user_id, ahead, cap };
      }
    }
    const claimed = await claim(trx, runId, token);
    return claimed ? { status: "claimed" as const, run: claimed } : { status: "ended" as const };
  });
}

/** The run's place in its user's queue; undefined when the run is not queued. */
export async function queuePlace(db: Conn, runId: string): Promise<QueuePlace | undefined> {
  const run = await db
    .selectFrom("solve_runs")
    .select(["user_id", "status"])
    .where("id", "=", runId)
    .executeTakeFirst();
  if (!run || !(ACTIVE_RUN_STATUSES as readonly string[]).includes(run.status)) return undefined;
  const { plan } = await currentUsagePeriod(db, run.user_id);
  const running = await countRunning(db, run.user_id);
  const ahead = running + (await countQueuedBefore(db, run.user_id, runId)) - (run.status === "running" ? 1 : 0);
  return { userId: run.user_id, plan, ahead };
}

/** The user's queued runs in the order they were made (at most `limit`), each with its place, and the user's plan. */
export async function userQueue(
  db: Conn,
  userId: string,
  limit = 100,
): Promise<{ plan: PlanId; running: number; queued: { runId: string; ahead: number }[] }> {
  const { plan } = await currentUsagePeriod(db, userId);
  const running = await countRunning(db, userId);
  const rows = await db
    .selectFrom("solve_runs")
    .select("id")
    .where("user_id", "=", userId)
    .where("status", "=", "queued")
    .orderBy("created_at")
    .orderBy("id")
    .limit(limit)
    .execute();
  return { plan, running, queued: rows.map((r, i) => ({ runId: r.id, ahead: running + i })) };
}

async function countRunning(db: Conn, userId: string): Promise<number> {
  const r = await db
    .selectFrom("solve_runs")
    .select((eb) => eb.fn.countAll<string>().as("n"))
    .where("user_id", "=", userId)
    .where("status", "=", "running")
    .executeTakeFirstOrThrow();
  return Number(r.n);
}

async function countQueuedBefore(db: Conn, userId: string, runId: string): Promise<number> {
  const r = await db
    .selectFrom("solve_runs")
    .select((eb) => eb.fn.countAll<string>().as("n"))
    .where("user_id", "=", userId)
    .where("status", "=", "queued")
    .where(sql<boolean>`(created_at, id) < (select created_at, id from solve_runs where id = ${runId})`)
    .executeTakeFirstOrThrow();
  return Number(r.n);
}
