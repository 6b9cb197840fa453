import { sql, type Kysely } from "kysely";
import type { Database, Repository, RepositoryPermission } from "../schema";
import { endOfRepositories } from "./backtests.repository";
import type { Conn } from "./conn";
import * as githubRepositories from "./github-repositories.repository";
import { repositoryTestSettings } from "./json-columns";

export type TestSettings = NonNullable<ReturnType<typeof repositoryTestSettings.read>>;

/** The user's row for a repository, as the test runner reads it. */
export interface RepositoryForTests {
  id: string;
  testSettings: TestSettings | null;
  /** As stored (GitHub's spelling). */
  fullName: string;
  /** The user can push there (own, admin or write): only then is its `.fixloop.yml` the user's own. */
  canPush: boolean;
}

async function findForTests(db: Conn, userId: string, fullName: string): Promise<RepositoryForTests | undefined> {
  const row = await db
    .selectFrom("repositories")
    .innerJoin("github_repositories as g", "g.github_id", "repositories.github_id")
    .select(["repositories.id", "repositories.test_settings", "g.full_name", "repositories.can_push"])
    .where("repositories.user_id", "=", userId)
    .where("repositories.left_at", "is", null)
    .where(sql<string>`lower(g.full_name)`, "=", fullName.toLowerCase())
    .executeTakeFirst();
  return (
    row && {
      id: row.id,
      testSettings: repositoryTestSettings.read(row.test_settings),
      fullName: row.full_name,
      canPush: row.can_push,
    }
  );
}

/**
 * The user's repository `owner/repo` (case-insensitive) with its test settings (null: detect, or
 * a stored value of another shape), if the user has it.
 */
export async function findWithTestSettings(
  db: Conn,
  userId: string,
  fullName: string,
): Promise<{ id: string; testSettings: TestSettings | null } | undefined> {
  const row = await findForTests(db, userId, fullName);
  return row && { id: row.id, testSettings: row.testSettings };
}

/**
 * The first of `names` (skipping nulls) the user has a repository row for, with its test settings
 * and whether the user can push there: an imported issue's upstream, then the user's fork.
 */
export async function findFirstWithTestSettings(
  db: Conn,
  userId: string,
  names: (string | null)[],
): Promise<RepositoryForTests | undefined> {
  for (const name of names) {
    const row = name ? await findForTests(db, userId, name) : undefined;
    if (row) return row;
  }
  return undefined;
}

/** Stores a repository's test settings; null goes back to detection. */
export async function saveTestSettings(db: Conn, repositoryId: string, settings: TestSettings | null): Promise<void> {
  await db
    .updateTable("repositories")
    .set({ test_settings: settings && repositoryTestSettings.write(settings), updated_at: new Date() })
    .where("id", "=", repositoryId)
    .execute();
}

/** The user's access rows with their repositories' GitHub fields. */
export function selectWithGithub(db: Conn) {
  return db
    .selectFrom("repositories")
    .innerJoin("github_repositories as g", "g.github_id", "repositories.github_id")
    .selectAll("repositories")
    .select([
      "g.owner",
      "g.name",
      "g.full_name",
      "g.description",
      "g.is_private",
      "g.is_fork",
      "g.language",
      "g.html_url",
      "g.default_branch",
    ]);
}

/** The repositories in the user's list now. */
export async function listOf(db: Conn, userId: string): Promise<Repository[]> {
  return selectWithGithub(db)
    .where("repositories.user_id", "=", userId)
    .where("repositories.left_at", "is", null)
    .orderBy("g.full_name")
    .execute();
}

/** The GitHub fields of a repository we keep. */
export interface SyncedRepository {
  github_id: number;
  owner: string;
  name: string;
  full_name: string;
  description: string | null;
  is_private: boolean;
  is_fork: boolean;
  language: string | null;
  html_url: string;
  default_branch: string;
  permission: RepositoryPermission;
}

/**
 * Stores a repository as GitHub shows it to the user (see `githubRepositories.upsert`) and the
 * user's access to it, back in their list when it had left it; returns the access row's id and
 * issue-list ETag. A repository renamed or transferred on GitHub keeps its rows: only its name changes.
 */
export async function upsertSynced(db: Conn, userId: string, r: SyncedRepository) {
  const { permission, owner: _owner, name: _name, ...github } = r;
  const githubId = await githubRepositories.upsert(db, github);
  return db
    .insertInto("repositories")
    .values({ user_id: userId, github_id: githubId, permission })
    .onConflict((oc) =>
      oc.columns(["user_id", "github_id"]).doUpdateSet({ permission, left_at: null, updated_at: sql`now()` }),
    )
    .returning(["id", "issues_etag"])
    .executeTakeFirstOrThrow();
}

/**
 * Marks the user's repositories whose GitHub ids are not in `seen` (revoked access, deleted) as
 * having left the list. Their backtests still under way end first, in the same transaction, with
 * the solve runs they started: each run's quota unit is given back. Their issues (not imported
 * ones, solved in the user's fork) have left with them, so their runs are stopped and new ones
 * refused even when the caller fails before stopping them. Answers the removed repositories' names.
 */
export async function removeUnseen(db: Kysely<Database>, userId: string, seen: string[]): Promise<string[]> {
  return db.transaction().execute(async (trx) => {
    // Locked (in one order, so two syncs at once do not deadlock) so no backtest of them starts
    // until they are marked.
    let stale = trx
      .selectFrom("repositories")
      .innerJoin("github_repositories as g", "g.github_id", "repositories.github_id")
      .select(["repositories.id", "g.full_name"])
      .where("repositories.user_id", "=", userId)
      .where("repositories.left_at", "is", null);
    if (seen.length > 0) stale = stale.where("repositories.github_id", "not in", seen);
    const rows = await stale.orderBy("repositories.id").forUpdate("repositories").execute();
    if (rows.length === 0) return [];
    const ids = rows.map((r) => r.id);
    await endOfRepositories(trx, ids);
    await trx
      .updateTable("repositories")
      .set({ left_at: sql`now()` })
      .where("id", "in", ids)
      .execute();
    return rows.map((r) => r.full_name);
  });
}

/** Notes an issue sync; a new ETag is kept unless GitHub answered "not modified". */
export async function markSynced(db: Conn, repositoryId: string, issuesEtag?: string | null): Promise<void> {
  await db
    .updateTable("repositories")
    .set({ synced_at: new Date(), ...(issuesEtag === undefined ? {} : { issues_etag: issuesEtag }) })
    .where("id", "=", repositoryId)
    .execute();
}
