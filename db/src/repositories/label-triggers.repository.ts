import { sql } from "kysely";
import type { Conn } from "./conn";

/** A repository row whose user solves issues carrying its label. */
export interface LabelTriggerRepository {
  id: string;
  userId: string;
  /** The repository's GitHub id, and its name now. */
  githubId: string;
  fullName: string;
  label: string;
  /** Logins trusted besides those with write access. */
  allowedSenders: string[];
}

/** The user's repository `owner/repo` (case-insensitive) with its solve label (null: off), if the user has it. */
export async function findSetting(db: Conn, userId: string, fullName: string) {
  return db
    .selectFrom("repositories")
    .innerJoin("github_repositories as g", "g.github_id", "repositories.github_id")
    .select([
      "repositories.id",
      "repositories.solve_label",
      "repositories.can_push",
      "repositories.solve_label_senders",
      "repositories.solve_label_refused_at",
      "repositories.solve_label_refused_issue",
      "repositories.solve_label_refused_sender",
      "repositories.solve_label_refused_reason",
    ])
    .where("repositories.user_id", "=", userId)
    .where("repositories.left_at", "is", null)
    .where(sql<string>`lower(g.full_name)`, "=", fullName.toLowerCase())
    .executeTakeFirst();
}

/** Turns the label trigger on (with its label) or off (null) for one repository row, with the senders it also trusts. */
export async function saveSetting(
  db: Conn,
  repositoryId: string,
  label: string | null,
  allowedSenders: string[] = [],
): Promise<void> {
  await db
    .updateTable("repositories")
    .set({
      solve_label: label,
      solve_label_senders: allowedSenders,
      // The first to enable keeps the earliest time: that user's plan pays when several enabled it.
      solve_label_enabled_at: label === null ? null : sql<Date>`coalesce(solve_label_enabled_at, now())`,
      updated_at: new Date(),
    })
    .where("id", "=", repositoryId)
    .execute();
}

/**
 * The repository row that solves issues of the repository with GitHub id `repositoryId` labelled
 * `label` (case-insensitive): of the users who enabled it with that label and may still push
 * there, the first to do so.
 */
export async function enabledFor(
  db: Conn,
  repositoryId: number | string,
  label: string,
): Promise<LabelTriggerRepository | undefined> {
  const row = await db
    .selectFrom("repositories")
    .innerJoin("github_repositories as g", "g.github_id", "repositories.github_id")
    .select([
      "repositories.id",
      "repositories.user_id",
      "repositories.github_id",
      "g.full_name",
      "repositories.solve_label",
      "repositories.solve_label_senders",
    ])
    .where("repositories.github_id", "=", String(repositoryId))
    .where(sql<string>`lower(repositories.solve_label)`, "=", label.toLowerCase())
    // Only while the user may still push there (the sync keeps can_push current) and has it listed.
    .where("repositories.can_push", "=", true)
    .where("repositories.left_at", "is", null)
    .orderBy("repositories.solve_label_enabled_at")
    .orderBy("repositories.id")
    .executeTakeFirst();
  return row && row.solve_label
    ? {
        id: row.id,
        userId: row.user_id,
        githubId: row.github_id,
        fullName: row.full_name,
        label: row.solve_label,
        allowedSenders: row.solve_label_senders,
      }
    : undefined;
}

/**
 * Claims an issue + label for the trigger: true for the first claim only (the unique key on
 * issue and lower-cased label settles races between the webhook, the sync and redeliveries).
 */
export async function claim(
  db: Conn,
  c: { userId: string; issueId: string; label: string; senderLogin: string | null },
): Promise<string | undefined> {
  const row = await db
    .insertInto("label_triggers")
    .values({ user_id: c.userId, issue_id: c.issueId, label: c.label.toLowerCase(), sender_login: c.senderLogin })
    .onConflict((oc) => oc.columns(["issue_id", "label"]).doNothing())
    .returning("id")
    .executeTakeFirst();
  return row?.id;
}

/** What came of a claim: started (with its run), over_quota, blocked, closed, pull_request_open, active. */
export async function settle(db: Conn, id: string, outcome: string, runId: string | null = null): Promise<void> {
  await db
    .updateTable("label_triggers")
    .set({ outcome, run_id: runId, updated_at: new Date() })
    .where("id", "=", id)
    .execute();
}

/** Gives a claim back after an unexpected failure (GitHub down, say), so a redelivery or the next sync tries again. */
export async function release(db: Conn, id: string): Promise<void> {
  await db.deleteFrom("label_triggers").where("id", "=", id).where("run_id", "is", null).execute();
}

/** The claims of one issue (newest first), for tests and the log. */
export async function ofIssue(db: Conn, issueId: string) {
  return db
    .selectFrom("label_triggers")
    .selectAll()
    .where("issue_id", "=", issueId)
    .orderBy("created_at", "desc")
    .execute();
}

/** Keeps the last label trigger refused for its sender on the repository row, for its settings to show. */
export async function recordRefusal(
  db: Conn,
  repositoryId: string,
  r: { issueNumber: number; sender: string | null; reason: string },
): Promise<void> {
  await db
    .updateTable("repositories")
    .set({
      solve_label_refused_at: new Date(),
      solve_label_refused_issue: r.issueNumber,
      solve_label_refused_sender: r.sender,
      solve_label_refused_reason: r.reason,
    })
    .where("id", "=", repositoryId)
    .execute();
}
