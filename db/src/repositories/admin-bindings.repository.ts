import type { Conn } from "./conn";

/**
 * The GitHub account id an administrator login is bound to: the account that held it when it was
 * first seen signed in (bound now when this is the first time). Logins are compared lower-cased.
 */
export async function bind(db: Conn, login: string, githubId: string): Promise<string> {
  const key = login.toLowerCase();
  const bound = () => db.selectFrom("admin_bindings").select("github_id").where("login", "=", key).executeTakeFirst();
  // Read first: the binding is written once, not on every request that asks.
  const known = await bound();
  if (known) return String(known.github_id);
  await db
    .insertInto("admin_bindings")
    .values({ login: key, github_id: githubId })
    .onConflict((oc) => oc.column("login").doNothing())
    .execute();
  // A concurrent first sign-in may have bound it first: its binding stands.
  return String((await bound())?.github_id ?? githubId);
}
