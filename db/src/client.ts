import { Kysely, PostgresDialect, sql } from "kysely";
import pg from "pg";
import type { Database } from "./schema";
import { StorableTextPlugin } from "./storable.plugin";

// bigint (int8) as string, timestamptz as Date (pg default), numeric as string.
pg.types.setTypeParser(20, (v) => v);

export type Db = Kysely<Database>;

export function createDb(url: string, opts: { max?: number } = {}): Db {
  const pool = new pg.Pool({ connectionString: url, max: opts.max ?? 10 });
  // A dropped connection must not crash the process; queries on it fail and are retried by callers.
  pool.on("error", () => {});
  return new Kysely<Database>({ dialect: new PostgresDialect({ pool }), plugins: [new StorableTextPlugin()] });
}

/** A round trip to Postgres. */
export async function pingDatabase(db: Db): Promise<void> {
  await sql`select 1`.execute(db);
}
