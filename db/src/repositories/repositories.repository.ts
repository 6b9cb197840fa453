import { sql, type Kysely } from "kysely";
import type { Database, Repository } from "../schema";
import { endOfRepositories } from "./backtests.repository";
import { inTransaction, type Conn } from "./conn";
import { pageOf } from "./github-pages";
import { repositoryTestSettings } from "./json-columns";
import * as pullRequests from "./pull-requests.repository";

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
    .select(["id", "test_settings", "full_name", "can_push"])
    .where("user_id", "=", userId)
    .where(sql<string>`lower(full_name)`, "=", fullName.toLowerCase())
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

export async function listOf(db: Conn, userId: string): Promise<Repository[]> {
  return db.selectFrom("repositories").selectAll().where("user_id", "=", userId).orderBy("full_name").execute();
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
  can_push: boolean;
}

/**
 * Inserts or refreshes a repository as GitHub shows it to the user; returns its id and issue-list
 * ETag. A repository is known by its GitHub id, so one renamed or transferred on GitHub keeps its
 * row, and the rows that name it (see `renameRepository`) follow it in the same transaction.
 */
export async function upsertSynced(db: Conn, userId: string, r: SyncedRepository) {
  const run = async (trx: Conn) => {
    const { github_id, ...values } = r;
    const before = await trx
      .selectFrom("repositories")
      .select("full_name")
      .where("user_id", "=", userId)
      .where("github_id", "=", String(github_id))
      .forUpdate()
      .executeTakeFirst();
    const row = await trx
      .insertInto("repositories")
      .values({ user_id: userId, github_id, ...values })
      .onConflict((oc) => oc.columns(["user_id", "github_id"]).doUpdateSet({ ...values, updated_at: new Date() }))
      .returning(["id", "issues_etag"])
      .executeTakeFirstOrThrow();
    if (before && before.full_name !== r.full_name) await renameRepository(trx, userId, before.full_name, r.full_name);
    // Back in the list (access given again): its issues may be solved again.
    await trx
      .updateTable("issues")
      .set({ repository_left_at: null })
      .where("user_id", "=", userId)
      .where("repository_left_at", "is not", null)
      .where(sql<string>`lower(repo_full_name)`, "=", r.full_name.toLowerCase())
      .execute();
    return row;
  };
  return inTransaction(db, run);
}

/** Where a repository lives now, as a GitHub webhook names it (its id never changes). */
export interface RepositoryLocation {
  githubId: number;
  owner: string;
  name: string;
  fullName: string;
}

/**
 * Moves every user's row of the repository with this GitHub id, and the rows that name it (see
 * `renameRepository`), to where a webhook says it lives now; returns how many repository rows
 * moved (0: every row already had that name). It moves from the name each user's row holds, not
 * from the webhook's `changes`, so renames that were never delivered are caught up too. The page
 * link keeps the host the sync stored (GitHub, or a GitHub Enterprise server) and takes the new path.
 */
export async function followRename(db: Conn, to: RepositoryLocation): Promise<number> {
  const run = async (trx: Conn) => {
    const rows = await trx
      .selectFrom("repositories")
      .select(["id", "user_id", "full_name", "html_url"])
      .where("github_id", "=", String(to.githubId))
      .where("full_name", "!=", to.fullName)
      .orderBy("id")
      .forUpdate()
      .execute();
    for (const row of rows) {
      await trx
        .updateTable("repositories")
        .set({
          owner: to.owner,
          name: to.name,
          full_name: to.fullName,
          html_url: pageOf(row.html_url, to.fullName),
          updated_at: new Date(),
        })
        .where("id", "=", row.id)
        .execute();
      await renameRepository(trx, row.user_id, row.full_name, to.fullName);
    }
    return rows.length;
  };
  return inTransaction(db, run);
}

/**
 * Moves the user's rows that name a repository by `owner/name` from its old name to its new one.
 * Issues are keyed by that name and number: left behind, the next issue sync would store each
 * issue again under the new name (its solutions and pull requests staying with the stale copy),
 * and a new repository taking the old name would sync its issues onto the old rows. An issue
 * already stored under the new name keeps both rows (the stale one is not merged into it).
 */
async function renameRepository(trx: Conn, userId: string, from: string, to: string): Promise<void> {
  await trx
    .updateTable("issues")
    .set({ repo_full_name: to })
    .where("user_id", "=", userId)
    .where("repo_full_name", "=", from)
    .where(({ not, exists, selectFrom }) =>
      not(
        exists(
          selectFrom("issues as taken")
            .select("taken.id")
            .where("taken.user_id", "=", userId)
            .where("taken.repo_full_name", "=", to)
            .whereRef("taken.issue_number", "=", "issues.issue_number"),
        ),
      ),
    )
    .execute();
  for (const column of ["upstream_full_name", "fork_full_name"] as const)
    await trx
      .updateTable("issues")
      .set({ [column]: to })
      .where("user_id", "=", userId)
      .where(column, "=", from)
      .execute();
  // Pull requests move one by one, as a push that finds them renamed moves them: their page link
  // too, and a number another stored pull request holds under the new name keeps that row's names
  // (a unique clash here would fail the whole rename, and with it every later delivery and sync).
  const pulls = await trx
    .selectFrom("pull_requests")
    .select(["id", "pr_number", "repo_full_name", "head_repo_full_name", "html_url"])
    .where("user_id", "=", userId)
    .where((eb) => eb.or([eb("repo_full_name", "=", from), eb("head_repo_full_name", "=", from)]))
    .orderBy("id")
    .forUpdate()
    .execute();
  const renamed = (name: string) => (name === from ? to : name);
  for (const pr of pulls)
    await pullRequests.followNames(trx, pr, {
      repoFullName: renamed(pr.repo_full_name),
      headRepoFullName: renamed(pr.head_repo_full_name),
    });
}

/**
 * Removes the user's repositories whose GitHub ids are not in `seen` (revoked access, deleted).
 * Their backtests still under way end first, in the same transaction, with the solve runs they
 * started: each run's quota unit is given back before the delete unlinks it from its backtest.
 * Their issues (not imported ones, solved in the user's fork) are marked as having left the list
 * in the same transaction, so their runs are stopped and new ones refused even when the caller
 * fails before stopping them. Answers the removed repositories' full names.
 */
export async function removeUnseen(db: Kysely<Database>, userId: string, seen: string[]): Promise<string[]> {
  return db.transaction().execute(async (trx) => {
    // Locked (in one order, so two syncs at once do not deadlock) so no backtest of them starts
    // (its row references the repository) until they are gone.
    let stale = trx.selectFrom("repositories").select(["id", "full_name"]).where("user_id", "=", userId);
    if (seen.length > 0) stale = stale.where("github_id", "not in", seen);
    const rows = await stale.orderBy("id").forUpdate().execute();
    if (rows.length === 0) return [];
    const ids = rows.map((r) => r.id);
    await endOfRepositories(trx, ids);
    await trx
      .updateTable("issues")
      .set({ repository_left_at: sql`now()` })
      .where("user_id", "=", userId)
      .where("is_imported", "=", false)
      .where("repository_left_at", "is", null)
      .where((eb) =>
        eb.or([
          eb("repository_id", "in", ids),
          eb.and([
            eb("repository_id", "is", null),
            eb(
              sql<string>`lower(repo_full_name)`,
              "in",
              rows.map((r) => r.full_name.toLowerCase()),
            ),
          ]),
        ]),
      )
      .execute();
    await trx.deleteFrom("repositories").where("id", "in", ids).execute();
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
