import type { Conn } from "./conn";
import { toUser, USER_COLUMNS, type UserRecord } from "./users.repository";

export async function create(
  db: Conn,
  s: { tokenHash: string; userId: string; userAgent: string | null; expiresAt: Date },
): Promise<void> {
  await db
    .insertInto("sessions")
    .values({ token_hash: s.tokenHash, user_id: s.userId, user_agent: s.userAgent, expires_at: s.expiresAt })
    .execute();
}

export async function revoke(db: Conn, sessionId: string): Promise<void> {
  await db
    .updateTable("sessions")
    .set({ revoked_at: new Date() })
    .where("id", "=", sessionId)
    .where("revoked_at", "is", null)
    .execute();
}

/** The user of a live, unexpired session. */
export async function userOf(db: Conn, tokenHash: string): Promise<(UserRecord & { sessionId: string }) | undefined> {
  const row = await db
    .selectFrom("sessions")
    .innerJoin("users", "users.id", "sessions.user_id")
    .select(["sessions.id as session_id", ...USER_COLUMNS])
    .where("sessions.token_hash", "=", tokenHash)
    .where("sessions.revoked_at", "is", null)
    .where("sessions.expires_at", ">", new Date())
    .executeTakeFirst();
  return row && { ...toUser(row), sessionId: row.session_id };
}
