import { pullRequestEvents } from "@fixloop/db";
import {
  actionsJobId,
  checkOutputText,
  isFailingCheckState,
  TIMELINE_TEXT_MAX,
  type PullRequestTimelineEntry,
} from "@fixloop/contract";
import { conditionalOnFirstPage, type GithubClient, type Logger } from "@fixloop/runtime";
import { checkEntry } from "./check-log.sync";

type Db = Parameters<typeof pullRequestEvents.recordEvent>[0];

/** A merge or close seen by polling, as the webhook records it (same GitHub object, same row). */
export async function recordClosed(
  db: Db,
  id: string,
  pr: { number: number; closed_at: string | null; merged_by?: { login: string } | null; html_url: string },
  status: "merged" | "closed",
) {
  await pullRequestEvents.recordEvent(db, id, {
    kind: status,
    sourceId: String(pr.number),
    actor: status === "merged" ? (pr.merged_by?.login ?? null) : null,
    state: null,
    title: null,
    body: null,
    path: null,
    line: null,
    url: pr.html_url,
    occurredAt: pr.closed_at ?? new Date().toISOString(),
  });
}

const cut = (s: string | null | undefined) => (s == null ? null : s.slice(0, TIMELINE_TEXT_MAX));
const empty = { actor: null, state: null, title: null, body: null, path: null, line: null, url: null };

interface Target {
  id: string;
  owner: string;
  repo: string;
  number: number;
  /** null when the pull request answered 304: the head of the last read (kept with its ETag) is still current. */
  headSha: string | null;
}

/**
 * Pages read of each list (reviews, review comments, check runs) at most: 10 pages of 100, 1,000
 * items. GitHub sets no limit on them, and a pull request that anyone can comment on could make
 * the worker read (and spend rate limit) without end; past the bound the rest is left unread,
 * and the read says so (`unread`), to be logged.
 */
export const TIMELINE_MAX_PAGES = 10;
/** Failing GitHub Actions jobs whose log one read of a pull request downloads, newest first. */
export const JOB_LOGS_PER_READ = 3;
const PER_PAGE = 100;

type Page<T> = { data: T[]; headers: { etag?: string; link?: string } };

/**
 * Where no webhook arrives, reads a pull request's reviews, review comments and check runs, every
 * page up to TIMELINE_MAX_PAGES, the first conditional on the ETag of its last read (a 304 costs no
 * rate limit), and records them through the same repository function the webhook uses, so neither
 * path adds an entry twice.
 */
export async function pollTimeline(gh: GithubClient, db: Db, t: Target, logger: Logger) {
  const etags = await pullRequestEvents.timelineEtags(db, t.id);
  const headSha =
    t.headSha ??
    Object.keys(etags)
      .find((k) => k.startsWith("checks:"))
      ?.slice("checks:".length);
  const next = { ...etags };
  const unread: string[] = [];
  const o = { owner: t.owner, repo: t.repo, per_page: PER_PAGE };
  let recorded = 0;
  /** Every page of one list; null when its first page answered 304 (nothing changed since the last read). */
  const read = async <T>(key: string, pages: (etag: string | undefined) => AsyncIterable<Page<T>>) => {
    const items: T[] = [];
    let count = 0;
    let etag: string | undefined;
    try {
      for await (const page of pages(etags[key])) {
        if (count === 0) etag = page.headers.etag;
        items.push(...page.data);
        if (++count >= TIMELINE_MAX_PAGES) {
          if (/rel="next"/.test(page.headers.link ?? "")) unread.push(key);
          break;
        }
      }
    } catch (err) {
      if (count === 0 && (err as { status?: number }).status === 304) return null;
      throw err;
    }
    // The first page's ETag stands for the whole list only when the list fits on it with room to
    // spare: these lists are oldest first, so an item added to a longer (or full) list lands on a
    // later page and leaves the first page, and its ETag, as it was. Such a list is read in full
    // next time (an empty ETag; the key stays, it names the head whose check runs were read).
    next[key] = etag && count === 1 && items.length < PER_PAGE ? etag : "";
    return items;
  };
  const record = async (e: PullRequestTimelineEntry) => {
    await pullRequestEvents.recordEvent(db, t.id, e);
    recorded++;
  };
  const reviews = await read("reviews", (etag) =>
    gh.paginate.iterator(conditionalOnFirstPage(gh.rest.pulls.listReviews, etag), { ...o, pull_number: t.number }),
  );
  for (const r of reviews ?? []) {
    if (r.state === "PENDING") continue;
    await record({
      ...empty,
      kind: "review",
      sourceId: String(r.id),
      actor: r.user?.login ?? null,
      state: r.state.toLowerCase().slice(0, 40),
      body: cut(r.body) || null,
      url: r.html_url,
      occurredAt: r.submitted_at ?? new Date().toISOString(),
    });
  }
  const comments = await read("comments", (etag) =>
    gh.paginate.iterator(conditionalOnFirstPage(gh.rest.pulls.listReviewComments, etag), {
      ...o,
      pull_number: t.number,
    }),
  );
  for (const c of comments ?? []) {
    await record({
      ...empty,
      kind: "review_comment",
      sourceId: String(c.id),
      actor: c.user?.login ?? null,
      body: cut(c.body),
      path: c.path,
      line: c.line ?? c.original_line ?? null,
      url: c.html_url,
      occurredAt: c.created_at,
      diffHunk: cut(c.diff_hunk),
      inReplyTo: c.in_reply_to_id != null ? String(c.in_reply_to_id) : null,
    });
  }
  // Octokit's paginate gives each page of check runs as the array of its runs.
  const checks = headSha
    ? await read(`checks:${headSha}`, (etag) =>
        gh.paginate.iterator(conditionalOnFirstPage(gh.rest.checks.listForRef, etag), { ...o, ref: headSha }),
      )
    : null;
  // A failing GitHub Actions job's log is read for the newest few only: each is a download.
  let logs = 0;
  const completed = (checks ?? []).filter((run) => run.status === "completed" && run.conclusion);
  for (const run of [...completed].reverse()) {
    const withLog = logs < JOB_LOGS_PER_READ && isFailingCheckState(run.conclusion) && actionsJobId(run) !== null;
    if (withLog) logs++;
    await record(
      withLog
        ? await checkEntry(gh, logger, { owner: t.owner, repo: t.repo }, run)
        : {
            ...empty,
            kind: "check",
            sourceId: String(run.id),
            state: (run.conclusion ?? "").slice(0, 40),
            title: run.name.slice(0, 300),
            body: checkOutputText(run.name, run.output),
            url: run.html_url ?? null,
            occurredAt: run.completed_at ?? new Date().toISOString(),
          },
    );
  }
  const kept = Object.fromEntries(
    Object.entries(next).filter(([k]) => !k.startsWith("checks:") || k === `checks:${headSha}`),
  );
  await pullRequestEvents.setTimelineEtags(db, t.id, kept);
  return { recorded, unread };
}
