import { createHash } from "node:crypto";
import { LRUCache } from "lru-cache";
import { ISSUE_PAGE_MAX, type IssueCounts, type IssueListQuery } from "@fixloop/contract";
import { issues, type Db } from "@fixloop/db";
import { issueView } from "./issues.views";
import { decodeCursor, encodeCursor } from "./issues.cursor";

/** `GET /api/issues`'s body. */
export interface IssueList {
  issues: ReturnType<typeof issueView>[];
  nextCursor: string | null;
  /** With the first page only. */
  counts: IssueCounts | null;
}

/** A page of a user's issue list as sent: its JSON and strong ETag, current while the list's version is `version`. */
export interface SerializedPage {
  version: bigint;
  body: Uint8Array<ArrayBuffer>;
  etag: string;
}

/**
 * Serialized pages kept per process: a team's lists fit many times over. Past the bound the least
 * recently read pages go; a page is rebuilt on its next read.
 */
const MAX_BYTES = 32 * 1024 * 1024;

const utf8 = new TextEncoder();

// One cache per database handle: a test process builds several apps, each on its own database.
const caches = new WeakMap<Db, LRUCache<string, SerializedPage>>();

function cacheOf(db: Db): LRUCache<string, SerializedPage> {
  let cache = caches.get(db);
  if (!cache) {
    cache = new LRUCache({ maxSize: MAX_BYTES, sizeCalculation: (p, key) => p.body.byteLength + key.length });
    caches.set(db, cache);
  }
  return cache;
}

async function build(
  db: Db,
  userId: string,
  q: IssueListQuery,
  after: issues.IssueListPosition | undefined,
): Promise<IssueList> {
  const [page, counts] = await Promise.all([
    issues.listOwnedPage(db, userId, { ...q, after, limit: q.limit ?? ISSUE_PAGE_MAX }),
    after ? null : issues.countOwned(db, userId),
  ]);
  return { issues: page.issues.map(issueView), nextCursor: page.next && encodeCursor(page.next), counts };
}

/**
 * One page of the user's issue list, serialized. The list's version is read first (Postgres bumps
 * it in the same commit as any change to what the list shows): a page kept from the same version is
 * current and is sent as it is; otherwise the page is read and kept. A page read after the version
 * can only be newer than it, and then the version has moved on too, so the next read rebuilds it:
 * no page is ever served from before a committed write.
 */
export async function issueListPage(db: Db, userId: string, q: IssueListQuery): Promise<SerializedPage> {
  const after = q.cursor === undefined ? undefined : decodeCursor(q.cursor);
  const version = BigInt(await issues.listVersion(db, userId));
  const key = JSON.stringify([userId, q.tab ?? null, q.status ?? null, q.q ?? null, q.cursor ?? null, q.limit ?? null]);
  const cache = cacheOf(db);
  const kept = cache.get(key);
  if (kept?.version === version) return kept;
  const body = utf8.encode(JSON.stringify(await build(db, userId, q, after)));
  // Strong: the same bytes for the same user. The user is hashed in so that two users' equal
  // lists (both empty) never answer each other's revalidation in a shared browser.
  const etag = `"${createHash("sha256").update(userId).update(body).digest("base64url").slice(0, 32)}"`;
  const page = { version, body, etag };
  // A slower read of an older version must not replace a newer page.
  const now = cache.get(key);
  if (!now || now.version <= version) cache.set(key, page);
  return page;
}

/** Whether an If-None-Match header names the ETag (`*`, or in its list; weak forms compare equal, as RFC 9110 says for GET). */
export function matchesEtag(ifNoneMatch: string | undefined, etag: string): boolean {
  if (!ifNoneMatch) return false;
  if (ifNoneMatch.trim() === "*") return true;
  return ifNoneMatch.split(",").some((t) => t.trim().replace(/^W\//, "") === etag);
}
