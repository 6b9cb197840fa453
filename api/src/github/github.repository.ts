import type { Db, Repository } from "@fixloop/db";
import { canWrite } from "@fixloop/runtime";

export function repositoryView(r: Repository) {
  return {
    _id: r.id,
    name: r.name,
    fullName: r.full_name,
    description: r.description,
    isPrivate: r.is_private,
    language: r.language,
    htmlUrl: r.html_url,
    defaultBranch: r.default_branch,
    canPush: r.can_push,
    syncedAt: r.synced_at?.toISOString() ?? null,
  };
}

export async function listRepositories(db: Db, userId: string) {
  return db.selectFrom("repositories").selectAll().where("user_id", "=", userId).orderBy("full_name").execute();
}

/** True when the stored token cannot write to repositories (no public_repo/repo yet). */
export async function requiresAuthorization(db: Db, userId: string): Promise<boolean> {
  const account = await db
    .selectFrom("github_accounts")
    .select("scopes")
    .where("user_id", "=", userId)
    .executeTakeFirst();
  return !account || !canWrite(account.scopes);
}
