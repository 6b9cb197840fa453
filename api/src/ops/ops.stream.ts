import type { Context } from "hono";
import type { AppDeps, AppEnv } from "../deps";
import { openSseSink, type SseSink } from "../solve/sse.sink";
import { opsSnapshot } from "./ops.snapshot";

/** How often every open operations stream gets a fresh snapshot. */
export const OPS_STREAM_INTERVAL_MS = 2_000;

/**
 * The operations streams of this process share one timer and one snapshot per tick, however many
 * admins watch; the timer runs only while a stream is open.
 */
class OpsBroadcast {
  private readonly sinks = new Set<SseSink>();
  private timer: NodeJS.Timeout | null = null;
  private ticking = false;

  constructor(
    private readonly deps: AppDeps,
    private readonly everyMs: number,
  ) {}

  add(sink: SseSink): void {
    this.sinks.add(sink);
    void sink.ready.then(() => this.sendTo([sink]));
    if (this.timer) return;
    this.timer = setInterval(() => void this.tick(), this.everyMs);
    this.timer.unref();
  }

  delete(sink: SseSink): void {
    this.sinks.delete(sink);
    if (this.sinks.size || !this.timer) return;
    clearInterval(this.timer);
    this.timer = null;
  }

  /** A tick while the previous one still reads is skipped: slow reads never pile up. */
  private async tick(): Promise<void> {
    if (this.ticking) return;
    this.ticking = true;
    await this.sendTo([...this.sinks]).finally(() => (this.ticking = false));
  }

  private async sendTo(sinks: SseSink[]): Promise<void> {
    try {
      const snap = await opsSnapshot(this.deps);
      const frame = Buffer.from(`event: snapshot\ndata: ${JSON.stringify(snap)}\n\n`);
      for (const s of sinks) if (this.sinks.has(s)) s.write(frame);
    } catch (err) {
      this.deps.logger.warn({ err: err instanceof Error ? err.message : String(err) }, "ops snapshot failed");
      for (const s of sinks) if (this.sinks.has(s)) s.write(Buffer.from(": snapshot failed\n\n"));
    }
  }
}

const broadcasts = new WeakMap<AppDeps, OpsBroadcast>();

/**
 * A snapshot at once, then one every OPS_STREAM_INTERVAL_MS, until the client goes away. The
 * stream holds one of the admin's live-stream slots (see sse.limit.ts); `release` frees it.
 */
export function streamOps(c: Context<AppEnv>, release: () => void): Response {
  const deps = c.var.deps;
  let b = broadcasts.get(deps);
  if (!b) broadcasts.set(deps, (b = new OpsBroadcast(deps, OPS_STREAM_INTERVAL_MS)));
  const hub = b;
  const { sink, response } = openSseSink(c, () => {
    hub.delete(sink);
    release();
  });
  hub.add(sink);
  return response;
}
