import type { Conn } from "./conn";

export type StatePurpose = "signin" | "repos";
export type StateFailure =
  "oauth.state_invalid" | "oauth.state_mismatch" | "oauth.state_reused" | "oauth.state_expired";

export async function create(
  db: Conn,
  s: {
    stateHash: string;
    bindingHash: string;
    purpose: StatePurpose;
    scopes: string[];
    userId: string | null;
    expiresAt: Date;
  },
): Promise<void> {
  await db
    .insertInto("oauth_states")
    .values({
      state_hash: s.stateHash,
      browser_binding_hash: s.bindingHash,
      purpose: s.purpose,
      scopes: s.scopes,
      user_id: s.userId,
      expires_at: s.expiresAt,
    })
    .execute();
}

/** Marks the state used if it exists, matches this browser, is unused and unexpired; otherwise says why not. */
export async function consume(db: Conn, stateHash: string, bindingHash: string) {
  const row = await db.selectFrom("oauth_states").selectAll().where("state_hash", "=", stateHash).executeTakeFirst();
  const fail = (reason: StateFailure) => ({ ok: false as const, reason, purpose: row?.purpose ?? "signin" });
  if (!row) return fail("oauth.state_invalid");
  if (row.browser_binding_hash !== bindingHash) return fail("oauth.state_mismatch");
  if (row.used_at) return fail("oauth.state_reused");
  if (row.expires_at.getTime() <= Date.now()) return fail("oauth.state_expired");
  const used = await db
    .updateTable("oauth_states")
    .set({ used_at: new Date() })
    .where("state_hash", "=", row.state_hash)
    .where("used_at", "is", null)
    .returning(["purpose", "user_id", "scopes"])
    .executeTakeFirst();
  if (!used) return fail("oauth.state_reused");
  return { ok: true as const, purpose: used.purpose, userId: used.user_id, scopes: used.scopes };
}
