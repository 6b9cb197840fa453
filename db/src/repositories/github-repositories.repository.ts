import { sql } from "kysely";
import type { Conn } from "./conn";
import { pageOf } from "./github-pages";

/** What GitHub says of a repository: its id and where it lives now, and what a listing adds. */
export interface GithubRepositoryFields {
  github_id: number | string;
  full_name: string;
  html_url?: string;
  description?: string | null;
  is_private?: boolean;
  is_fork?: boolean;
  language?: string | null;
  default_branch?: string;
}

/**
 * Stores (or refreshes) a repository GitHub showed under its id, and answers that id. A placeholder
 * of the same name (a name stored before ids were kept, see the 2026-11-29 migration) takes the id
 * first, so the rows naming it follow. Fields GitHub did not send keep what was stored.
 */
export async function upsert(db: Conn, r: GithubRepositoryFields): Promise<string> {
  const githubId = String(r.github_id);
  await db
    .updateTable("github_repositories")
    .set({ github_id: githubId })
    .where("github_id", "<", "0")
    .where(sql<string>`lower(full_name)`, "=", r.full_name.toLowerCase())
    .where(({ not, exists, selectFrom }) =>
      not(
        exists(
          selectFrom("github_repositories as taken").select("taken.github_id").where("taken.github_id", "=", githubId),
        ),
      ),
    )
    .execute();
  const [owner, name] = r.full_name.split("/") as [string, string];
  const known = {
    owner,
    name,
    full_name: r.full_name,
    ...(r.description !== undefined && { description: r.description }),
    ...(r.is_private !== undefined && { is_private: r.is_private }),
    ...(r.is_fork !== undefined && { is_fork: r.is_fork }),
    ...(r.language !== undefined && { language: r.language }),
    ...(r.default_branch !== undefined && { default_branch: r.default_branch }),
  };
  await db
    .insertInto("github_repositories")
    .values({ github_id: githubId, html_url: r.html_url ?? `https://github.com/${r.full_name}`, ...known })
    .onConflict((oc) =>
      oc.column("github_id").doUpdateSet((eb) => ({
        ...known,
        // A page link the sync stored keeps its host (GitHub, or a GitHub Enterprise server).
        html_url: r.html_url ?? sql<string>`${eb.ref("github_repositories.html_url")}`,
        updated_at: sql`now()`,
      })),
    )
    .execute();
  return githubId;
}

/** Where a repository lives now, as a GitHub webhook names it (its id never changes). */
export interface RepositoryLocation {
  githubId: number;
  owner: string;
  name: string;
  fullName: string;
}

/**
 * A repository was renamed or transferred: its one row takes the new name (every user's issues,
 * pull requests and settings name it by id). The page link keeps its host and takes the new path.
 * Answers 1 when the stored name changed, 0 when it already had that name or is not known.
 */
export async function follow(db: Conn, to: RepositoryLocation): Promise<number> {
  const row = await db
    .selectFrom("github_repositories")
    .select(["html_url", "full_name"])
    .where("github_id", "=", String(to.githubId))
    .executeTakeFirst();
  if (!row || row.full_name === to.fullName) return 0;
  await db
    .updateTable("github_repositories")
    .set({
      owner: to.owner,
      name: to.name,
      full_name: to.fullName,
      html_url: pageOf(row.html_url, to.fullName),
      updated_at: sql`now()`,
    })
    .where("github_id", "=", String(to.githubId))
    .execute();
  return 1;
}

/** The id of the repository stored under `fullName` now (case-insensitive), if any. */
export async function idOf(db: Conn, fullName: string): Promise<string | undefined> {
  const row = await db
    .selectFrom("github_repositories")
    .select("github_id")
    .where(sql<string>`lower(full_name)`, "=", fullName.toLowerCase())
    .orderBy(sql`github_id > 0`, "desc")
    .orderBy("updated_at", "desc")
    .executeTakeFirst();
  return row?.github_id;
}
