import { githubAccounts, type Db, type Repository } from "@fixloop/db";
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

/** True when the stored token cannot write to repositories (no public_repo/repo yet). */
export async function requiresAuthorization(db: Db, userId: string): Promise<boolean> {
  const scopes = await githubAccounts.scopes(db, userId);
  return !scopes || !canWrite(scopes);
}
