import {
  ClaimLost,
  fenced as fencedRow,
  holdClaim as holdRowClaim,
  releaseClaim as releaseRowClaim,
  type Claim,
} from "./claims";
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

export { ClaimLost };

const claimOf = (ref: RunClaim): Claim => ({ kind: "run", id: ref.runId, token: ref.token });

/** Inside a transaction: holds the run's row while it still carries the claim's token (see claims.holdClaim); a bare id holds nothing. */
export async function holdClaim(trx: Conn, ref: RunRef): Promise<void> {
  if (typeof ref !== "string") await holdRowClaim(trx, claimOf(ref));
}

/** Runs `write` in a transaction that holds the run's claim first (see holdClaim); a bare id runs it as is. */
export async function fenced<T>(db: Conn, ref: RunRef, write: (c: Conn) => Promise<T>): Promise<T> {
  return typeof ref === "string" ? write(db) : fencedRow(db, claimOf(ref), write);
}

/**
 * Gives the claim up (this worker lost the job's lock): from here on none of its writes lands,
 * whether or not another worker claimed the run yet. False when the row no longer carried it.
 */
export async function releaseClaim(db: Conn, claim: RunClaim): Promise<boolean> {
  return releaseRowClaim(db, claimOf(claim));
}
