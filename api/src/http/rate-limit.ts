import crypto from "node:crypto";
import { getConnInfo } from "@hono/node-server/conninfo";
import { createMiddleware } from "hono/factory";
import type { AppEnv } from "../deps";
import { AppError } from "./errors";

export interface RateRule {
  /** Name used in keys and errors, e.g. "generate". */
  name: string;
  /** Requests allowed per window, per caller identity and per IP. */
  limit: number;
  windowSeconds: number;
}

/** `name=limit/seconds,...` e.g. `generate=20/60,signin=30/60`. */
export function parseRateRules(spec: string, defaults: Record<string, RateRule>): Record<string, RateRule> {
  const out = { ...defaults };
  for (const part of spec
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean)) {
    const m = /^([a-z-]+)=(\d+)\/(\d+)$/.exec(part);
    if (!m || !m[1]) throw new Error(`Invalid RATE_LIMITS entry "${part}" (expected name=limit/seconds)`);
    out[m[1]] = { name: m[1], limit: Number(m[2]), windowSeconds: Number(m[3]) };
  }
  return out;
}

function clientIp(c: Parameters<Parameters<typeof createMiddleware<AppEnv>>[0]>[0]): string {
  try {
    return getConnInfo(c).remote.address ?? "unknown";
  } catch {
    return "unknown";
  }
}

/** Caller identity without a database read: a digest of the session cookie or bearer token. */
function credentialKey(cookie: string | undefined, auth: string | undefined): string | null {
  const cred = auth?.match(/^Bearer\s+(\S+)/i)?.[1] ?? cookie?.match(/(?:^|;\s*)fixloop_session=([^;]+)/)?.[1];
  return cred ? crypto.createHash("sha256").update(cred).digest("hex").slice(0, 32) : null;
}

/**
 * Seconds until one more request fits, for a caller with `accepted` requests in this window and
 * `previous` in the last, if it waits: first the previous window's weight wanes, then this one's.
 */
function secondsUntilRoom(accepted: number, previous: number, limit: number, windowSeconds: number, elapsed: number) {
  const at =
    accepted + 1 <= limit && previous > 0
      ? (1 - (limit - accepted - 1) / previous) * windowSeconds // later in this window
      : windowSeconds * (1 + (accepted > 0 ? Math.max(0, 1 - (limit - 1) / accepted) : 0)); // in the next one
  return Math.max(1, Math.ceil(at - elapsed));
}

/**
 * KEYS: per caller id, this window's count then the last one's. ARGV: limit, the last window's
 * weight, the keys' lifetime in seconds. Counts the request under every id when each has room
 * (this window's count + 1 + the last one's weighed ≤ limit); counts nothing otherwise. Returns
 * {1 counted | 0 refused, then each id's count in this window before the request, and in the last}.
 */
const SLIDING_WINDOW = `
local limit, weight, ttl = tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3])
local out, room = {1}, true
for i = 1, #KEYS, 2 do
  local current = tonumber(redis.call('GET', KEYS[i]) or '0')
  local previous = tonumber(redis.call('GET', KEYS[i + 1]) or '0')
  out[#out + 1] = current
  out[#out + 1] = previous
  if current + 1 + previous * weight > limit then room = false end
end
if not room then out[1] = 0 return out end
for i = 1, #KEYS, 2 do
  redis.call('INCR', KEYS[i])
  redis.call('EXPIRE', KEYS[i], ttl)
end
return out`;

/**
 * Sliding-window limits in Redis, counted per IP and per credential: this window's count plus the
 * previous window's, weighted by how much of it still overlaps the last `windowSeconds`. (A fixed
 * window would let twice the limit through across a boundary: the limit's last requests at :59 and
 * a full limit again at :00.) Exceeding either answers 429 with `retry-after`, the exact wait until
 * the next request fits; a refused request is not counted, so retrying early does not push it back. If Redis is
 * unreachable the request goes through (the limiter must not take the API down).
 */
export function rateLimit(rule: RateRule) {
  return createMiddleware<AppEnv>(async (c, next) => {
    const { redis, env } = c.var.deps;
    const now = Date.now() / 1000;
    const window = Math.floor(now / rule.windowSeconds);
    const elapsed = now - window * rule.windowSeconds;
    const ids = [`ip:${clientIp(c)}`];
    const cred = credentialKey(c.req.header("cookie"), c.req.header("authorization"));
    if (cred) ids.push(`u:${cred}`);
    const key = (id: string, w: number) => `${env.QUEUE_PREFIX}:rl:${rule.name}:${id}:${w}`;
    try {
      // One script counts, weighs and refuses atomically: a refused request is never counted,
      // not even for the moment a second round trip would take to give the count back (when a
      // concurrent request sharing the IP counter could be refused by it).
      const keys = ids.flatMap((id) => [key(id, window), key(id, window - 1)]);
      const weight = 1 - elapsed / rule.windowSeconds;
      const counts = (await redis.eval(
        SLIDING_WINDOW,
        keys.length,
        ...keys,
        rule.limit,
        weight,
        2 * rule.windowSeconds + 1,
      )) as number[];
      let retryAfter = 0;
      for (let i = 0; i < ids.length; i++) {
        const current = Number(counts[2 * i + 1] ?? 0);
        const previous = Number(counts[2 * i + 2] ?? 0);
        if (current + 1 + previous * weight > rule.limit)
          retryAfter = Math.max(
            retryAfter,
            secondsUntilRoom(current, previous, rule.limit, rule.windowSeconds, elapsed),
          );
      }
      if (counts[0] === 0) {
        throw new AppError(429, "rate_limited", `Too many requests, try again in ${Math.max(1, retryAfter)} s`, {
          "Retry-After": String(Math.max(1, retryAfter)),
        });
      }
    } catch (err) {
      if (err instanceof AppError) throw err;
    }
    await next();
  });
}
