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
 * Fixed-window limits in Redis, counted per IP and per credential. Exceeding either answers 429
 * with `retry-after`. If Redis is unreachable the request goes through (the limiter must not take the API down).
 */
export function rateLimit(rule: RateRule) {
  return createMiddleware<AppEnv>(async (c, next) => {
    const { redis, env } = c.var.deps;
    const window = Math.floor(Date.now() / 1000 / rule.windowSeconds);
    const ids = [`ip:${clientIp(c)}`];
    const cred = credentialKey(c.req.header("cookie"), c.req.header("authorization"));
    if (cred) ids.push(`u:${cred}`);
    try {
      const multi = redis.multi();
      for (const id of ids) {
        const key = `${env.QUEUE_PREFIX}:rl:${rule.name}:${id}:${window}`;
        multi.incr(key).expire(key, rule.windowSeconds + 1);
      }
      const res = (await multi.exec()) ?? [];
      const counts = res.filter((_, i) => i % 2 === 0).map(([, v]) => Number(v));
      if (counts.some((n) => n > rule.limit)) {
        const retryAfter = rule.windowSeconds - (Math.floor(Date.now() / 1000) % rule.windowSeconds);
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
