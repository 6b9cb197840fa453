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
      const multi = redis.multi();
      // Each count is kept for two windows: the next window weighs this one.
      for (const id of ids)
        multi
          .incr(key(id, window))
          .expire(key(id, window), 2 * rule.windowSeconds + 1)
          .get(key(id, window - 1));
      const res = (await multi.exec()) ?? [];
      const weight = 1 - elapsed / rule.windowSeconds;
      let retryAfter = 0;
      for (let i = 0; i < ids.length; i++) {
        const current = Number(res[3 * i]?.[1] ?? 0);
        const previous = Number(res[3 * i + 2]?.[1] ?? 0);
        if (current + previous * weight > rule.limit)
          retryAfter = Math.max(
            retryAfter,
            secondsUntilRoom(current - 1, previous, rule.limit, rule.windowSeconds, elapsed),
          );
      }
      if (retryAfter > 0) {
        const undo = redis.multi();
        for (const id of ids) undo.decr(key(id, window));
        await undo.exec();
        throw new AppError(429, "rate_limited", `Too many requests, try again in ${retryAfter} s`, {
          "Retry-After": String(retryAfter),
        });
      }
    } catch (err) {
      if (err instanceof AppError) throw err;
    }
    await next();
  });
}
