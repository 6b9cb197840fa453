import { sql } from "kysely";
import { inTransaction, type Conn } from "./conn";

/**
 * Where each kind of job keeps its claim: a column on the row of that job's state. A worker
 * attempt writes a fresh token there when it takes the job; the job's writes land only while the
 * row still carries it, so an attempt whose job was handed to another worker (its lock lapsed)
 * changes nothing after the new holder's claim.
 */
const CLAIM_COLUMNS = {
  run: { table: "solve_runs", column: "claim_token", what: "run" },
  testsRerun: { table: "solutions", column: "tests_claim_token", what: "the tests re-run of solution" },
  pullRequest: { table: "solutions", column: "pr_claim_token", what: "the pull-request job of solution" },
} as const;

export type ClaimKind = keyof typeof CLAIM_COLUMNS;

/** One worker attempt's hold on a job: the token it wrote on the job's row (`id`) when it took the job. */
export interface Claim {
  readonly kind: ClaimKind;
  readonly id: string;
  readonly token: string;
}

/** A write refused because the job is no longer the writer's: another worker claimed it since. */
export class ClaimLost extends Error {
  readonly code = "job.claim_lost";
  constructor(
    readonly id: string,
    what = "run",
  ) {
    super(`job.claim_lost: ${what} ${id} was claimed by another worker`);
    this.name = "ClaimLost";
  }
}

const columnOf = (kind: ClaimKind) => CLAIM_COLUMNS[kind];

/**
 * Inside a transaction: holds the job's row while it still carries the claim's token; ClaimLost
 * otherwise. FOR KEY SHARE: a new claim (which takes the row FOR UPDATE first, see runs.claim
 * and solutions.claimTestsRerun)
 * waits until the transaction ends, while other updates of the row (a user's edit) do not wait
 * behind the job's write.
 */
export async function holdClaim(trx: Conn, claim: Claim): Promise<void> {
  const { table, column, what } = columnOf(claim.kind);
  const held = await sql<{ held: number }>`
    select 1 as held from ${sql.table(table)}
    where id = ${claim.id} and ${sql.ref(column)} = ${claim.token}
    for key share`.execute(trx);
  if (held.rows.length === 0) throw new ClaimLost(claim.id, what);
}

/**
 * Runs `write` in a transaction that holds `claim` first (see holdClaim), so it lands only while
 * the job is still the writer's; without a claim (a seeding script, a test) it runs in a plain one.
 */
export async function fenced<T>(db: Conn, claim: Claim | undefined, write: (trx: Conn) => Promise<T>): Promise<T> {
  return inTransaction(db, async (trx) => {
    if (claim) await holdClaim(trx, claim);
    return write(trx);
  });
}

/**
 * Gives the claim up (this worker lost the job's lock): from here on none of its writes lands,
 * whether or not another worker claimed the job yet. False when the row no longer carried it.
 */
export async function releaseClaim(db: Conn, claim: Claim): Promise<boolean> {
  const { table, column } = columnOf(claim.kind);
  const r = await sql`
    update ${sql.table(table)} set ${sql.ref(column)} = null
    where id = ${claim.id} and ${sql.ref(column)} = ${claim.token}`.execute(db);
  return Number(r.numAffectedRows ?? 0) === 1;
}
