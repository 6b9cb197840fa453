import type { Kysely, Transaction } from "kysely";
import type { Database } from "../schema";

/** A connection or an open transaction: repository functions run on either. */
export type Conn = Kysely<Database> | Transaction<Database>;

/** Runs `work` in a transaction: the caller's, when `db` is one, or a new one. */
export async function inTransaction<T>(db: Conn, work: (trx: Transaction<Database>) => Promise<T>): Promise<T> {
  if (db.isTransaction) return work(db as Transaction<Database>);
  return db.transaction().execute(work);
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** True for a well-formed UUID: ids from a URL are checked before they reach a uuid column. */
export const isUuid = (s: string): boolean => UUID.test(s);
