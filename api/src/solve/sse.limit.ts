import crypto from "node:crypto";
import type { Redis } from "ioredis";
import type { AppDeps } from "../deps";
import { type LiveStreamKind, openSseStreams } from "../admin/metrics.registry";
import { AppError } from "../http/errors";

/**
 * Open live streams per user, across every API process: a Redis sorted set per user of stream
 * ids scored by lease expiry (Redis's clock, so hosts need not agree). A process renews the
 * leases of its open streams every third of a lease and removes a stream when it closes, so the
 * streams of a process that crashed stop counting within one lease.
 */
export function streamSlotsKey(prefix: string, userId: string): string {
  return `${prefix}:sse-streams:${userId}`;
}

const NOW_MS = `local t = redis.call('TIME') local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)`;

/** KEYS[1] the user's set; ARGV: cap, lease ms, stream id. 1 when the slot was taken. */
const ACQUIRE = `${NOW_MS}
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[1]) then return 0 end
redis.call('ZADD', KEYS[1], now + tonumber(ARGV[2]), ARGV[3])
redis.call('PEXPIRE', KEYS[1], ARGV[2])
return 1`;

/** KEYS: one set per open stream (repeated for a user's several streams); ARGV: lease ms, then the stream ids in KEYS' order. */
const RENEW = `${NOW_MS}
local lease = tonumber(ARGV[1])
for i, key in ipairs(KEYS) do
  redis.call('ZADD', key, now + lease, ARGV[i + 1])
  redis.call('PEXPIRE', key, lease)
end
return #KEYS`;

/** This process's open streams on one Redis client, renewed by one timer. */
class StreamSlots {
  private readonly open = new Map<string, string>();
  private timer: NodeJS.Timeout | null = null;

  constructor(
    private readonly redis: Redis,
    private readonly leaseMs: number,
    private readonly onError: (err: Error) => void,
  ) {}

  async acquire(key: string, max: number): Promise<(() => void) | null> {
    const id = crypto.randomUUID();
    const taken = await this.redis.eval(ACQUIRE, 1, key, max, this.leaseMs, id);
    if (taken !== 1) return null;
    this.open.set(id, key);
    this.timer ??= setInterval(() => this.renew(), Math.max(1_000, Math.floor(this.leaseMs / 3)));
    this.timer.unref();
    return () => {
      if (!this.open.delete(id)) return;
      this.redis.zrem(key, id).catch(this.onError);
      if (this.open.size || !this.timer) return;
      clearInterval(this.timer);
      this.timer = null;
    };
  }

  private renew(): void {
    if (!this.open.size) return;
    const ids = [...this.open.keys()];
    const keys = ids.map((id) => this.open.get(id) ?? "");
    this.redis.eval(RENEW, keys.length, ...keys, this.leaseMs, ...ids).catch(this.onError);
  }
}

const registries = new WeakMap<Redis, StreamSlots>();

/** Counts one open stream of `kind` in `fixloop_sse_open_streams` until the returned release (idempotent). */
function counted(kind: LiveStreamKind, release: () => void): () => void {
  openSseStreams.inc({ kind });
  let open = true;
  return () => {
    if (!open) return;
    open = false;
    openSseStreams.dec({ kind });
    release();
  };
}

/**
 * Takes one of the user's live-stream slots for a stream of `kind` or throws 429; the returned
 * release is idempotent. The stream counts in `fixloop_sse_open_streams{kind}` until released.
 * When Redis cannot be asked, the stream is let through (its events come from Redis too, and a
 * refused stream would only make the client retry), and the failure is logged.
 */
export async function acquireStreamSlot(
  deps: Pick<AppDeps, "redis" | "queues" | "env" | "logger">,
  userId: string,
  kind: LiveStreamKind,
): Promise<() => void> {
  const { redis, env, logger } = deps;
  let slots = registries.get(redis);
  if (!slots) {
    slots = new StreamSlots(redis, env.SSE_STREAM_LEASE_SECONDS * 1000, (err) =>
      logger.warn({ err: err.message }, "live stream lease update failed"),
    );
    registries.set(redis, slots);
  }
  const max = env.SSE_MAX_STREAMS_PER_USER;
  let release: (() => void) | null;
  try {
    release = await slots.acquire(streamSlotsKey(deps.queues.prefix, userId), max);
  } catch (err) {
    logger.warn({ err: (err as Error).message, userId }, "live stream count unavailable; stream allowed");
    return counted(kind, () => {});
  }
  if (!release)
    throw new AppError(
      429,
      "sse.too_many_streams",
      `At most ${max} live streams may be open at once; close one and try again`,
      { "Retry-After": "5" },
    );
  return counted(kind, release);
}
