import type { Conn } from "./conn";

export async function create(
  db: Conn,
  c: { codeHash: string; userId: string; bindingHash: string; expiresAt: Date },
): Promise<void> {
  await db
    .insertInto("login_codes")
    .values({
      code_hash: c.codeHash,
      user_id: c.userId,
      browser_binding_hash: c.bindingHash,
      expires_at: c.expiresAt,
    })
    .execute();
}

/**
 * Single use: the conditional update lets exactly one exchange win, and only with the binding
 * of the browser that started the sign-in. Returns the code's user, or null.
 */
export async function consume(db: Conn, codeHash: string, bindingHash: string): Promise<string | null> {
  const row = await db
    .updateTable("login_codes")
    .set({ used_at: new Date() })
    .where("code_hash", "=", codeHash)
    .where("browser_binding_hash", "=", bindingHash)
    .where("used_at", "is", null)
    .where("expires_at", ">", new Date())
    .returning("user_id")
    .executeTakeFirst();
  return row?.user_id ?? null;
}
