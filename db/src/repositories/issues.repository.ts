import { sql, type Kysely, type Transaction } from "kysely";
import { inTransaction } from "./conn";
import * as githubRepositories from "./github-repositories.repository";
import type { GithubRepositoryFields } from "./github-repositories.repository";
import { ANSWERING_SOLUTION_STATUSES, type IssueGone, type LinkedPullRequest } from "@fixloop/contract";
import type { Database, NewIssue } from "../schema";
import { issueOnGithub } from "./issues.reads";
import { issueAssignees, issueLabels, issueLinkedPulls } from "./json-columns";

type Conn = Kysely<Database> | Transaction<Database>;

/**
 * The user's row of issue `issueNumber` of the repository with GitHub id `repositoryId`, with its
 * fork's name when it was imported.
 */
export async function importedIssue(db: Conn, userId: string, repositoryId: number | string, issueNumber: number) {
  return db
    .selectFrom("issues")
    .leftJoin("github_repositories as fork", "fork.github_id", "issues.fork_github_id")
    .select(["issues.id", "fork.full_name as fork_full_name", "issues.is_imported"])
    .where("issues.user_id", "=", userId)
    .where("issues.repository_github_id", "=", String(repositoryId))
    .where("issues.issue_number", "=", issueNumber)
    .executeTakeFirst();
}

/** A solve run started on the issue: → analyzing (a closed issue stays closed). */
export async function markAnalyzing(db: Conn, issueId: string): Promise<void> {
  await db
    .updateTable("issues")
    .set({ status: "analyzing", updated_at: sql`now()` })
    .where("id", "=", issueId)
    .where("status", "!=", "closed")
    .execute();
}

/** A solve run ended unfinished: analyzing → failed, or → open when it was cancelled. */
export async function endAnalysis(db: Conn, issueId: string, outcome: "failed" | "cancelled"): Promise<void> {
  await db
    .updateTable("issues")
    .set({ status: outcome === "failed" ? "failed" : "open", updated_at: sql`now()` })
    .where("id", "=", issueId)
    .where("status", "=", "analyzing")
    .execute();
}

/** A solve run produced a solution: → solved, unless the issue is closed or already has a pull request. */
export async function markSolved(db: Conn, issueId: string): Promise<void> {
  await db
    .updateTable("issues")
    .set({ status: "solved", updated_at: sql`now()` })
    .where("id", "=", issueId)
    .where("status", "in", ["analyzing", "open", "pending", "failed"])
    .execute();
}

/** Its solution was rejected: the issue is unsolved again and returns to the Open tab. */
export async function reopen(db: Conn, issueId: string): Promise<void> {
  await db
    .updateTable("issues")
    .set({ status: "open", updated_at: sql`now()` })
    .where("id", "=", issueId)
    .execute();
}

/** A solution was deleted: a solved issue with no pending or approved solution left is open again. */
export async function reopenIfUnanswered(db: Conn, issueId: string): Promise<void> {
  await db
    .updateTable("issues")
    .set({ status: "open", updated_at: sql`now()` })
    .where("id", "=", issueId)
    .where("status", "=", "solved")
    .where(({ not, exists, selectFrom }) =>
      not(
        exists(
          selectFrom("solutions")
            .select("id")
            .whereRef("issue_id", "=", "issues.id")
            .where("status", "in", ANSWERING_SOLUTION_STATUSES),
        ),
      ),
    )
    .execute();
}

/** A pull request was opened for one of its solutions: → pr_created. */
export async function markPullRequestCreated(db: Conn, issueId: string): Promise<void> {
  await db
    .updateTable("issues")
    .set({ status: "pr_created", updated_at: sql`now()` })
    .where("id", "=", issueId)
    .execute();
}

/**
 * GitHub no longer has issue `issueNumber` of the repository with GitHub id `repositoryId`
 * (deleted, or transferred to `movedTo`): every user's row of it is closed with that reason, so it
 * can be neither solved nor given a pull request. Returns how many rows changed.
 */
export async function markGone(
  db: Conn,
  repositoryId: number | string,
  issueNumber: number,
  gone: { reason: IssueGone; movedTo?: string | null },
): Promise<number> {
  const res = await db
    .updateTable("issues")
    .set({
      status: "closed",
      state: "closed",
      gone: gone.reason,
      moved_to: gone.movedTo ?? null,
      updated_at: sql`now()`,
    })
    .where(issueOnGithub(repositoryId, issueNumber))
    .where((eb) => eb.or([eb("gone", "is", null), eb("gone", "!=", gone.reason)]))
    .executeTakeFirst();
  return Number(res.numUpdatedRows);
}

/**
 * Whether issue `issueId` is marked gone from GitHub, and where it moved. In a transaction the row
 * is share-locked until commit, so a `markGone` racing with the caller waits for it and then finds
 * whatever the caller queued.
 */
export async function goneState(db: Conn, issueId: string) {
  let q = db.selectFrom("issues").select(["gone", "moved_to"]).where("id", "=", issueId);
  if (db.isTransaction) q = q.forShare();
  return q.executeTakeFirst();
}

/** The user's issues of one repository (by GitHub id) GitHub had and that are not marked gone: number and stored GitHub id. */
export async function present(
  db: Conn,
  userId: string,
  repositoryId: number | string,
): Promise<{ issue_number: number; github_id: string | null }[]> {
  return db
    .selectFrom("issues")
    .select(["issue_number", "github_id"])
    .where("user_id", "=", userId)
    .where("repository_github_id", "=", String(repositoryId))
    .where("gone", "is", null)
    .execute();
}

/** The columns GitHub's issue object fills, labels and assignees as names. */
export type GithubIssueColumns = Omit<GithubIssueRow, "labels" | "assignees"> & {
  labels: string[];
  assignees: string[];
};

type GithubIssueRow = Pick<
  NewIssue,
  | "github_id"
  | "issue_number"
  | "title"
  | "body"
  | "labels"
  | "state"
  | "html_url"
  | "author_login"
  | "is_locked"
  | "assignees"
  | "github_created_at"
  | "github_updated_at"
> & { issue_number: number; title: string; state: string; html_url: string };

const statusFromState = (state: string) => (state === "closed" ? ("closed" as const) : ("open" as const));

/** The row values of GitHub's columns, the JSON ones checked (JsonColumnError when malformed). */
const rowOf = (cols: GithubIssueColumns): GithubIssueRow => ({
  ...cols,
  labels: issueLabels.write(cols.labels),
  assignees: issueAssignees.write(cols.assignees),
});

/**
 * An issue imported from someone else's repository, worked on in the user's fork; a repeated
 * import refreshes it. Both repositories are stored as GitHub showed them (see `githubRepositories.upsert`).
 */
export async function recordImported(
  db: Conn,
  userId: string,
  repos: { upstream: GithubRepositoryFields; fork: GithubRepositoryFields },
  cols: GithubIssueColumns,
): Promise<string> {
  return inTransaction(db, async (trx) => {
    const upstreamId = await githubRepositories.upsert(trx, repos.upstream);
    const forkId = await githubRepositories.upsert(trx, repos.fork);
    return storeImported(trx, userId, { upstreamId, forkId }, cols);
  });
}

async function storeImported(
  db: Conn,
  userId: string,
  repos: { upstreamId: string; forkId: string },
  cols: GithubIssueColumns,
): Promise<string> {
  const imported = { is_imported: true, fork_github_id: repos.forkId };
  const values = rowOf(cols);
  const row = await db
    .insertInto("issues")
    .values({
      user_id: userId,
      repository_github_id: repos.upstreamId,
      status: statusFromState(cols.state),
      ...values,
      ...imported,
    })
    .onConflict((oc) =>
      oc
        .columns(["user_id", "repository_github_id", "issue_number"])
        .doUpdateSet({ ...values, ...imported, updated_at: sql`now()` }),
    )
    .returning("id")
    .executeTakeFirstOrThrow();
  return row.id;
}

/** The user's fork `goneId` was deleted and forked again as `fork`: the imported issues that used it move to the new one. */
export async function replaceFork(
  db: Conn,
  userId: string,
  forks: { goneId: number | string; fork: GithubRepositoryFields },
): Promise<void> {
  await inTransaction(db, async (trx) => {
    const forkId = await githubRepositories.upsert(trx, forks.fork);
    await trx
      .updateTable("issues")
      .set({ fork_github_id: forkId, updated_at: sql`now()` })
      .where("user_id", "=", userId)
      .where("fork_github_id", "=", String(forks.goneId))
      .execute();
  });
}

/**
 * Inserts or refreshes synced issues of one repository. GitHub's state moves an untouched issue
 * between open and closed; statuses Fixloop set itself (analyzing, solved, pr_created, failed) are kept.
 */
export async function upsertSynced(
  db: Conn,
  userId: string,
  repo: { id: string | null; githubId: number | string },
  issues: GithubIssueColumns[],
): Promise<void> {
  if (issues.length === 0) return;
  const rows = issues.map((cols) => ({
    user_id: userId,
    repository_id: repo.id,
    repository_github_id: String(repo.githubId),
    status: statusFromState(cols.state),
    ...rowOf(cols),
  }));
  await db
    .insertInto("issues")
    .values(rows)
    .onConflict((oc) =>
      oc.columns(["user_id", "repository_github_id", "issue_number"]).doUpdateSet((eb) => ({
        repository_id: sql`coalesce(excluded.repository_id, issues.repository_id)`,
        github_id: eb.ref("excluded.github_id"),
        title: eb.ref("excluded.title"),
        body: eb.ref("excluded.body"),
        labels: eb.ref("excluded.labels"),
        state: eb.ref("excluded.state"),
        html_url: eb.ref("excluded.html_url"),
        author_login: eb.ref("excluded.author_login"),
        is_locked: eb.ref("excluded.is_locked"),
        assignees: eb.ref("excluded.assignees"),
        github_created_at: eb.ref("excluded.github_created_at"),
        github_updated_at: eb.ref("excluded.github_updated_at"),
        // An issue GitHub answered 410 or 301 for stays closed whatever a listing says.
        status: sql`case
          when issues.gone is not null then issues.status
          when excluded.state = 'closed' and issues.status in ('open', 'pending') then 'closed'
          when excluded.state = 'open' and issues.status = 'closed' then 'open'
          else issues.status end`,
        // A sync that finds the issue unchanged on GitHub leaves it out of "recently changed".
        updated_at: sql`case when excluded.github_updated_at is distinct from issues.github_updated_at then now() else issues.updated_at end`,
      })),
    )
    .execute();
}

/**
 * Records the open pull requests GitHub links to issues of one repository (by GitHub id and issue
 * number). With `complete`, the map covers the whole repository: its other issues are linked to none.
 */
export async function setLinkedPulls(
  db: Conn,
  userId: string,
  repositoryId: number | string,
  byNumber: Map<number, LinkedPullRequest[]>,
  complete = false,
): Promise<void> {
  const scope = db
    .updateTable("issues")
    .where("user_id", "=", userId)
    .where("repository_github_id", "=", String(repositoryId));
  if (complete) {
    let reset = scope.set({ linked_pull_requests: "[]" }).where(sql<boolean>`linked_pull_requests <> '[]'::jsonb`);
    if (byNumber.size) reset = reset.where("issue_number", "not in", [...byNumber.keys()]);
    await reset.execute();
  }
  for (const [issueNumber, pulls] of byNumber) {
    await scope
      .set({ linked_pull_requests: issueLinkedPulls.write(pulls) })
      .where("issue_number", "=", issueNumber)
      .execute();
  }
}

export * from "./issues.reads";
export * from "./issues.list";
