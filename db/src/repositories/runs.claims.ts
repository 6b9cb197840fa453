import { sql, type Kysely } from "kysely";
import type { Database } from "../schema";
import type { Conn } from "./conn";

/**
 * One worker attempt's hold on a run: the token it wrote on the run's row when it claimed it. Its
 * writes of the run's state land only while the row still carries that token; a worker that took
 * the job over (the first one's lock lapsed) claimed the run anew, so the first one's late writes
 * change nothing and fail with ClaimLost.
 */
export interface RunClaim {
  readonly runId: string;
  readonly token: string;
}

/**
 * A run as a writer names it: its claim (a worker, fenced), or its bare id (a seeding script or a
 * test that set the row up by hand, unfenced).
 */
export type RunRef = string | RunClaim;

export const runIdOf = (ref: RunRef): string => (typeof ref === "string" ? ref : ref.runId);

/** A write refused because the run is no longer the writer's: another worker claimed it since. */
export class ClaimLost extends Error {
  readonly code = "job.claim_lost";
  constructor(readonly runId: string) {
    super(`job.claim_lost: run ${runId} was claimed by another worker`);
    this.name = "ClaimLost";
  }
}

/**
 * Inside a transaction: holds the run's row while it still carries the claim's token; ClaimLost
 * otherwise. A bare id holds nothing. FOR KEY SHARE: a new claim (which takes the row FOR UPDATE,
 * see runs.claim) waits until the transaction ends, while a Cancel request's update does not wait
 * behind a step write.
 */
export async function holdClaim(trx: Conn, ref: RunRef): Promise<void> {
  if (typeof ref === "string") return;
  const held = await trx
    .selectFrom("solve_runs")
    .select("id")
    .where("id", "=", ref.runId)
    .where("claim_token", "=", ref.token)
    .forKeyShare()
    .executeTakeFirst();
  if (!held) throw new ClaimLost(ref.runId);
}

/** Runs `write` in a transaction that holds the run's claim first (see holdClaim); a bare id runs it as is. */
export async function fenced<T>(db: Conn, ref: RunRef, write: (c: Conn) => Promise<T>): Promise<T> {
  if (typeof ref === "string") return write(db);
  if (db.isTransaction) {
    await holdClaim(db, ref);
    return write(db);
  }
  return (db as Kysely<Database>).transaction().execute(async (trx) => {
    await holdClaim(trx, ref);
    return write(trx);
  });
}

/**
 * Gives the claim up (this worker lost the job's lock): from here on none of its writes lands,
 * whether or not another worker claimed the run yet. False when the row no longer carried it.
 */
export async function releaseClaim(db: Conn, claim: RunClaim): Promise<boolean> {
  const r = await db
    .updateTable("solve_runs")
    .set({ claim_token: sql<string | null>`null` })
    .where("id", "=", claim.runId)
    .where("claim_token", "=", claim.token)
    .executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}
