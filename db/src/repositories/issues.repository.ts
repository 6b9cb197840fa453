import { sql, type Kysely, type Transaction } from "kysely";
import { ANSWERING_SOLUTION_STATUSES, type IssueGone, type LinkedPullRequest } from "@fixloop/contract";
import type { Database, NewIssue } from "../schema";
import { issueOnGithub } from "./issues.reads";
import { issueAssignees, issueLabels, issueLinkedPulls } from "./json-columns";

type Conn = Kysely<Database> | Transaction<Database>;

/**
 * The issue a user already imported from `repoFullName`, with its fork, if any. With the issue's
 * GitHub id (read from GitHub), an imported row of it stored under another name is found too: an
 * import keeps the upstream name it was made under, and the upstream may have been renamed since.
 * The row under `repoFullName` comes first.
 */
export async function importedIssue(
  db: Conn,
  userId: string,
  repoFullName: string,
  issueNumber: number,
  githubId?: number | null,
) {
  return db
    .selectFrom("issues")
    .select(["id", "fork_full_name", "is_imported"])
    .where("user_id", "=", userId)
    .where("issue_number", "=", issueNumber)
    .where((eb) =>
      githubId == null
        ? eb("repo_full_name", "=", repoFullName)
        : eb.or([
            eb("repo_full_name", "=", repoFullName),
            eb.and([eb("is_imported", "=", true), eb("github_id", "=", String(githubId))]),
          ]),
    )
    .orderBy(sql`repo_full_name = ${repoFullName}`, "desc")
    .orderBy("created_at")
    .limit(1)
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
 * GitHub no longer has issue `issueNumber` of `repoFullName` (deleted, or transferred to
 * `movedTo`): every user's row of it (see `issueOnGithub`, by `githubId` when known) is closed with
 * that reason, so it can be neither solved nor given a pull request. Returns how many rows changed.
 */
export async function markGone(
  db: Conn,
  repoFullName: string,
  issueNumber: number,
  gone: { reason: IssueGone; movedTo?: string | null },
  githubId?: number | null,
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
    .where(issueOnGithub(repoFullName, issueNumber, githubId))
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

/** The user's issues of one repository GitHub had and that are not marked gone: number and stored GitHub id. */
export async function present(
  db: Conn,
  userId: string,
  repoFullName: string,
): Promise<{ issue_number: number; github_id: string | null }[]> {
  return db
    .selectFrom("issues")
    .select(["issue_number", "github_id"])
    .where("user_id", "=", userId)
    .where("repo_full_name", "=", repoFullName)
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

/** An issue imported from someone else's repository, worked on in the user's fork; a repeated import refreshes it. */
export async function recordImported(
  db: Conn,
  userId: string,
  repos: { upstream: string; fork: string },
  cols: GithubIssueColumns,
): Promise<string> {
  const imported = { is_imported: true, upstream_full_name: repos.upstream, fork_full_name: repos.fork };
  const values = rowOf(cols);
  const row = await db
    .insertInto("issues")
    .values({
      user_id: userId,
      repo_full_name: repos.upstream,
      status: statusFromState(cols.state),
      ...values,
      ...imported,
    })
    .onConflict((oc) =>
      oc
        .columns(["user_id", "repo_full_name", "issue_number"])
        .doUpdateSet({ ...values, ...imported, updated_at: sql`now()` }),
    )
    .returning("id")
    .executeTakeFirstOrThrow();
  return row.id;
}

/** The user's fork `gone` was deleted and forked again as `fork`: the imported issues that used it move to the new one. */
export async function replaceFork(db: Conn, userId: string, gone: string, fork: string): Promise<void> {
  await db
    .updateTable("issues")
    .set({ fork_full_name: fork, updated_at: sql`now()` })
    .where("user_id", "=", userId)
    .where("fork_full_name", "=", gone)
    .execute();
}

/**
 * Inserts or refreshes synced issues of one repository. GitHub's state moves an untouched issue
 * between open and closed; statuses Fixloop set itself (analyzing, solved, pr_created, failed) are kept.
 */
export async function upsertSynced(
  db: Conn,
  userId: string,
  repo: { id: string | null; fullName: string },
  issues: GithubIssueColumns[],
): Promise<void> {
  if (issues.length === 0) return;
  const rows = issues.map((cols) => ({
    user_id: userId,
    repository_id: repo.id,
    repo_full_name: repo.fullName,
    status: statusFromState(cols.state),
    ...rowOf(cols),
  }));
  await db
    .insertInto("issues")
    .values(rows)
    .onConflict((oc) =>
      oc
        .columns(["user_id", "repo_full_name", "issue_number"])
        .doUpdateSet((eb) => ({
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
        }))
        // A row of another repository that held this name (renamed since, see `renameRepository`) is not overwritten.
        .where(
          sql<boolean>`issues.repository_id is null or excluded.repository_id is null or issues.repository_id = excluded.repository_id`,
        ),
    )
    .execute();
}

/**
 * Records the open pull requests GitHub links to issues of one repository (by issue number). With
 * `complete`, the map covers the whole repository: its other issues are linked to none.
 */
export async function setLinkedPulls(
  db: Conn,
  userId: string,
  repoFullName: string,
  byNumber: Map<number, LinkedPullRequest[]>,
  complete = false,
): Promise<void> {
  const scope = db.updateTable("issues").where("user_id", "=", userId).where("repo_full_name", "=", repoFullName);
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
