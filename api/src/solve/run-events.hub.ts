import type { Redis } from "ioredis";
import type { RunEvent } from "@fixloop/contract";
import { parseEntry } from "@fixloop/runtime";

/** One decoded stream entry, shared by every subscriber of its run. */
export interface HubEntry {
  id: string;
  event: RunEvent;
}

type Listener = (entries: HubEntry[]) => void;
type XReadReply = [string, [string, string[]][]][] | null;

/** Stream ids are `ms-seq`; compares them in stream order. */
export function compareIds(a: string, b: string): number {
  const [am = 0, as = 0] = a.split("-").map(Number);
  const [bm = 0, bs = 0] = b.split("-").map(Number);
  return am - bm || as - bs;
}

/**
 * Fans run events out to every open SSE stream of this API process with ONE Redis connection:
 * a single XREAD BLOCK over all watched run streams, each entry decoded once. A new subscription
 * interrupts the blocked read (CLIENT UNBLOCK) so its stream joins at once. Subscribers catch up
 * on older entries themselves (see `subscribe`).
 */
export class RunEventHub {
  private readonly watched = new Map<string, { cursor: string; listeners: Set<Listener> }>();
  private reader: Redis | null = null;
  private readerId: number | null = null;
  private loop: Promise<void> | null = null;
  /** Set when the watched keys changed while a read may be blocked; cleared when the loop re-reads them. */
  private dirty = false;

  constructor(
    private readonly redis: Redis,
    private readonly blockMs = 5_000,
  ) {}

  /**
   * Calls `listener` with every entry appended to `key` from now on (possibly a few older ones:
   * callers drop ids they already sent). Returns the unsubscribe function.
   */
  subscribe(key: string, listener: Listener): () => void {
    let w = this.watched.get(key);
    if (!w) {
      // "$" would race with entries added before the first XREAD; ids already sent are filtered out.
      w = { cursor: "0", listeners: new Set() };
      this.watched.set(key, w);
      this.wake();
    }
    w.listeners.add(listener);
    this.ensureLoop();
    return () => {
      const cur = this.watched.get(key);
      if (!cur) return;
      cur.listeners.delete(listener);
      if (cur.listeners.size === 0) this.watched.delete(key);
    };
  }

  private ensureLoop() {
    if (this.loop) return;
    this.loop = this.run().finally(() => {
      this.loop = null;
      if (this.watched.size) this.ensureLoop();
    });
  }

  /** Interrupts the blocked XREAD so new keys join; retried briefly in case the read was not blocking yet. */
  private wake(attempt = 0) {
    this.dirty = true;
    if (this.readerId === null || attempt > 50) return;
    void this.redis.client("UNBLOCK", this.readerId).catch(() => {});
    setTimeout(() => {
      if (this.dirty) this.wake(attempt + 1);
    }, 10).unref();
  }

  private async run(): Promise<void> {
    const reader = this.redis.duplicate({ enableOfflineQueue: true, maxRetriesPerRequest: null });
    reader.on("error", () => {});
    this.reader = reader;
    try {
      this.readerId = Number(await reader.client("ID"));
      while (this.watched.size) {
        this.dirty = false;
        const keys = [...this.watched.keys()];
        const cursors = keys.map((k) => this.watched.get(k)?.cursor ?? "$");
        let res: XReadReply;
        try {
          res = (await reader.xread(
            "COUNT",
            1000,
            "BLOCK",
            this.blockMs,
            "STREAMS",
            ...keys,
            ...cursors,
          )) as XReadReply;
        } catch {
          await new Promise((r) => setTimeout(r, 500)); // Redis down: retry; SSE heartbeats keep clients informed
          continue;
        }
        for (const [key, rows] of res ?? []) {
          const w = this.watched.get(key);
          if (!w || !rows.length) continue;
          const entries: HubEntry[] = [];
          for (const [id, fields] of rows) {
            w.cursor = id;
            const event = parseEntry(fields);
            if (event) entries.push({ id, event });
          }
          for (const l of w.listeners) l(entries);
        }
      }
    } finally {
      this.readerId = null;
      this.reader = null;
      reader.disconnect();
    }
  }
}

const hubs = new WeakMap<Redis, RunEventHub>();

/** The process's hub for this Redis client (one per app). */
export function runEventHub(redis: Redis): RunEventHub {
  let hub = hubs.get(redis);
  if (!hub) {
    hub = new RunEventHub(redis);
    hubs.set(redis, hub);
  }
  return hub;
}
