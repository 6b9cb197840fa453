import { sql, type Kysely, type Transaction } from "kysely";
import type { Database } from "../schema";
import { repositoryTestSettings } from "./json-columns";

type Conn = Kysely<Database> | Transaction<Database>;

export type TestSettings = NonNullable<ReturnType<typeof repositoryTestSettings.read>>;

/**
 * The user's repository `owner/repo` (case-insensitive) with its test settings (null: detect, or
 * a stored value of another shape), if the user has it.
 */
export async function findWithTestSettings(
  db: Conn,
  userId: string,
  fullName: string,
): Promise<{ id: string; testSettings: TestSettings | null } | undefined> {
  const row = await db
    .selectFrom("repositories")
    .select(["id", "test_settings"])
    .where("user_id", "=", userId)
    .where(sql<string>`lower(full_name)`, "=", fullName.toLowerCase())
    .executeTakeFirst();
  return row && { id: row.id, testSettings: repositoryTestSettings.read(row.test_settings) };
}

/** Stores a repository's test settings; null goes back to detection. */
export async function saveTestSettings(db: Conn, repositoryId: string, settings: TestSettings | null): Promise<void> {
  await db
    .updateTable("repositories")
    .set({ test_settings: settings && repositoryTestSettings.write(settings), updated_at: new Date() })
    .where("id", "=", repositoryId)
    .execute();
}
