export interface FaultRule {
  path?: RegExp;
  status: 403 | 429 | 500;
  /**
   * primary or secondary: a rate limit. restricted (403): the repository's organization has OAuth App
   * access restrictions, so GitHub refuses this token that repository alone; no rate limit.
   */
  kind: "primary" | "secondary" | "restricted";
  /** Seconds; sent as retry-after (secondary) or added to the reset time (primary). */
  retryAfter?: number;
  /** How many matching requests fail; default 1. */
  times?: number;
}

/** Queue of simulated failures; the first matching rule answers instead of the route. */
export class FaultQueue {
  private rules: Array<FaultRule & { left: number }> = [];

  add(rule: FaultRule): void {
    this.rules.push({ ...rule, left: rule.times ?? 1 });
  }

  take(path: string): FaultRule | null {
    const rule = this.rules.find((r) => !r.path || r.path.test(path));
    if (!rule) return null;
    rule.left -= 1;
    if (rule.left <= 0) this.rules = this.rules.filter((r) => r !== rule);
    return rule;
  }

  clear(): void {
    this.rules = [];
  }
}

export interface Bucket {
  limit: number;
  used: number;
  /** Epoch seconds when the window resets. */
  reset: number;
}

const WINDOW_SECONDS = 3600;

/** GitHub's primary "core" limit: 5000/hour per token, 60/hour anonymous. */
export class RateLimiter {
  private readonly buckets = new Map<string, Bucket>();

  bucket(key: string, authenticated: boolean): Bucket {
    const now = Math.floor(Date.now() / 1000);
    let b = this.buckets.get(key);
    if (!b || b.reset <= now) {
      b = { limit: authenticated ? 5000 : 60, used: 0, reset: now + WINDOW_SECONDS };
      this.buckets.set(key, b);
    }
    return b;
  }

  headers(b: Bucket, resource = "core"): Record<string, string> {
    return {
      "x-ratelimit-limit": String(b.limit),
      "x-ratelimit-remaining": String(Math.max(0, b.limit - b.used)),
      "x-ratelimit-reset": String(b.reset),
      "x-ratelimit-used": String(b.used),
      "x-ratelimit-resource": resource,
    };
  }
}
