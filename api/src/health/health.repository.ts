import { sql } from "kysely";
import type { Db } from "@fixloop/db";

/** A round trip to Postgres. */
export async function pingDatabase(db: Db): Promise<void> {
  await sql`select 1`.execute(db);
}
