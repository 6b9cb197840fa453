import { repositories, type Db, type RepositoryPermission } from "@fixloop/db";

/** The fields of GitHub's repository object we keep. */
export interface GithubRepo {
  id: number;
  name: string;
  full_name: string;
  owner: { login: string };
  description: string | null;
  private: boolean;
  fork: boolean;
  language?: string | null;
  html_url: string;
  default_branch?: string;
  permissions?: { admin?: boolean; maintain?: boolean; push?: boolean; triage?: boolean; pull?: boolean };
}

/** GitHub's repository object as the one row Fixloop keeps of it (see `githubRepositories.upsert`). */
export function githubFieldsOf(r: Pick<GithubRepo, "id" | "full_name" | "html_url" | "default_branch">) {
  return { github_id: r.id, full_name: r.full_name, html_url: r.html_url, default_branch: r.default_branch };
}

/** GitHub's permission flags as the user's role there, the highest one set (none: pull). */
export function permissionOf(p: GithubRepo["permissions"]): RepositoryPermission {
  if (p?.admin) return "admin";
  if (p?.maintain) return "maintain";
  if (p?.push) return "push";
  if (p?.triage) return "triage";
  return "pull";
}

export async function upsertRepository(db: Db, userId: string, r: GithubRepo) {
  return repositories.upsertSynced(db, userId, {
    github_id: r.id,
    owner: r.owner.login,
    name: r.name,
    full_name: r.full_name,
    description: r.description,
    is_private: r.private,
    is_fork: r.fork,
    language: r.language ?? null,
    html_url: r.html_url,
    default_branch: r.default_branch ?? "main",
    permission: permissionOf(r.permissions),
  });
}
