import { sql } from "kysely";
import type { Db, Repository } from "@fixloop/db";
import { canWrite } from "@fixloop/worker/contract";

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

/** The user's repository `owner/repo` (case-insensitive) with its test settings, if the user has it. */
export async function findOwnRepository(db: Db, userId: string, owner: string, repo: string) {
  return db
    .selectFrom("repositories")
    .select(["id", "test_settings"])
    .where("user_id", "=", userId)
    .where(sql<string>`lower(full_name)`, "=", `${owner}/${repo}`.toLowerCase())
    .executeTakeFirst();
}

/** Stores a repository's test settings; null goes back to detection. */
export async function saveTestSettings(db: Db, repositoryId: string, settings: object | null): Promise<void> {
  await db
    .updateTable("repositories")
    .set({ test_settings: settings ? JSON.stringify(settings) : null, updated_at: new Date() })
    .where("id", "=", repositoryId)
    .execute();
}
