import type { Logger } from "@fixloop/runtime";
import type { Context } from "hono";
import type { Redis } from "ioredis";
import { runs, steps, type Db, type SolveRun } from "@fixloop/db";
import { isTerminalRunStatus, RUN_CANCELLED, runEventsKey, type ActiveRunCaps, type RunEvent } from "@fixloop/contract";
import { parseEntry } from "@fixloop/runtime";
import type { AppEnv } from "../deps";
import { presentRun, queuedNoteOf, runActionsOf } from "./runs.present";
import { compareIds, runEventHub, type HubEntry } from "./run-events.hub";
import { HeartbeatTicker } from "./sse.heartbeat";
import { openSseSink, type SseSink } from "./sse.sink";

/** Longest silence on a stream: a heartbeat comment goes out (proxies drop idle streams) and Postgres is asked whether the run ended. */
export const HEARTBEAT_MS = 10_000;
const STREAM_ID = /^\d+-\d+$/;
const HEARTBEAT = Buffer.from(": heartbeat\n\n");

/** One run event as an SSE message: named by its type, the event itself as data (the contract's RunEvent is the wire type). */
function sseOf(ev: RunEvent): { event: RunEvent["type"]; data: string } {
  return { event: ev.type, data: JSON.stringify(ev) };
}

const frame = (event: string, data: string, id?: string) =>
  Buffer.from(`event: ${event}\ndata: ${data}\n${id ? `id: ${id}\n` : ""}\n`);

/** Wire bytes of an entry, encoded once however many streams carry it (hub entries are shared). */
const frames = new WeakMap<HubEntry, Buffer>();
function frameOf(entry: HubEntry): Buffer {
  let f = frames.get(entry);
  if (!f) {
    const w = sseOf(entry.event);
    f = frame(w.event, w.data, entry.id);
    frames.set(entry, f);
  }
  return f;
}

/** Concurrent identical reads (many subscribers connecting at once) share one query. */
const inFlight = new Map<string, Promise<unknown>>();
function shared<T>(key: string, load: () => Promise<T>): Promise<T> {
  let p = inFlight.get(key) as Promise<T> | undefined;
  if (!p) {
    p = load().finally(() => inFlight.delete(key));
    inFlight.set(key, p);
  }
  return p;
}

function snapshotOf(
  db: Db,
  caps: ActiveRunCaps,
  key: string,
  runId: string,
): Promise<{ run: SolveRun; frame: Buffer }> {
  return shared(`snapshot ${key}`, async () => {
    const [run, stored] = await Promise.all([runs.loadExisting(db, runId), steps.listForView(db, runId)]);
    const [note, actions] = await Promise.all([queuedNoteOf(db, caps, run), runActionsOf(db, run)]);
    return { run, frame: frame("snapshot", JSON.stringify(presentRun(run, stored, note, actions))) };
  });
}

/** Stored entries after `last` (all of them when `last` is 0-0). */
function catchUp(redis: Redis, key: string, last: string): Promise<HubEntry[]> {
  return shared(`range ${key} ${last}`, async () => {
    const rows = await redis.xrange(key, last === "0-0" ? "-" : `(${last}`, "+");
    return rows.flatMap(([id, fields]) => {
      const event = parseEntry(fields);
      return event ? [{ id, event }] : [];
    });
  });
}

function terminalFromRun(run: SolveRun): RunEvent | null {
  const at = (run.finished_at ?? new Date()).toISOString();
  if (run.status === "completed" && run.solution_id) return { type: "completed", solutionId: run.solution_id, at };
  if (run.status === "failed")
    return {
      type: "failed",
      error: { code: run.error_code ?? "run.failed", message: run.error_message ?? "The run failed" },
      at,
    };
  if (run.status === "cancelled")
    return {
      type: "cancelled",
      error: { code: run.error_code ?? RUN_CANCELLED.code, message: run.error_message ?? RUN_CANCELLED.message },
      at,
    };
  return null;
}

/** Quiet streams of one run: one Postgres read tells whether it ended; otherwise each gets a heartbeat. */
const ticker = new HeartbeatTicker<RunStream>(HEARTBEAT_MS / 2, (groups) => {
  for (const streams of groups.values()) {
    const first = streams[0];
    if (!first) continue;
    runs.loadExisting(first.db, first.runId).then(
      (run) => streams.forEach((s) => void s.quiet(run)),
      () => streams.forEach((s) => s.quiet(null)),
    );
  }
});

/** One open stream. Live entries are written synchronously as the hub delivers them. */
class RunStream {
  wrote = false;
  sink!: SseSink;
  /** Live entries held back until the snapshot and catch-up went out; null once live. */
  private pending: HubEntry[] | null = [];
  private done = false;
  private unsubscribe: (() => void) | null = null;

  constructor(
    readonly key: string,
    readonly runId: string,
    readonly db: Db,
    private readonly redis: Redis,
    private last: string,
    private readonly caps: ActiveRunCaps,
  ) {}

  /** Called once when the stream ends (terminal event or client gone). */
  onClose?: () => void;

  readonly onEntries = (entries: HubEntry[]) => {
    if (this.pending) this.pending.push(...entries);
    else this.send(entries);
  };

  async start(logger: Logger): Promise<void> {
    this.unsubscribe = runEventHub(this.redis).subscribe(this.key, this.onEntries);
    try {
      const [snap] = await Promise.all([snapshotOf(this.db, this.caps, this.key, this.runId), this.sink.ready]);
      if (this.done) return;
      this.write(snap.frame);
      this.send(await catchUp(this.redis, this.key, this.last));
      const held = this.pending ?? [];
      this.pending = null;
      this.send(held);
      if (this.done) return;
      ticker.add(this);
      // Postgres says the run ended but its terminal event may have been lost or expired.
      if (isTerminalRunStatus(snap.run.status)) await this.quiet(await runs.loadExisting(this.db, this.runId));
    } catch (err) {
      logger.warn(
        { err: err instanceof Error ? err.message : String(err), runId: this.runId },
        "run event stream failed",
      );
      this.finish();
    }
  }

  /** Writes entries newer than `last`; ends the stream after a terminal event. */
  private send(entries: HubEntry[]): void {
    for (const entry of entries) {
      if (this.done) return;
      if (compareIds(entry.id, this.last) <= 0) continue;
      this.last = entry.id;
      this.write(frameOf(entry));
      if (isTerminalRunStatus(entry.event.type)) return this.finish();
    }
  }

  private write(bytes: Buffer): void {
    this.wrote = true;
    this.sink.write(bytes);
  }

  /** Nothing written for a while; `run` is its current row (null when Postgres could not say). */
  async quiet(run: SolveRun | null): Promise<void> {
    const end = run && terminalFromRun(run);
    if (this.done) return;
    if (!end) return this.sink.write(HEARTBEAT);
    this.send(await catchUp(this.redis, this.key, this.last));
    if (this.done) return;
    const w = sseOf(end);
    this.write(frame(w.event, w.data));
    this.finish();
  }

  private finish(): void {
    this.sink.end();
    this.close();
  }

  /** Idempotent cleanup: on the terminal event or when the client goes away. */
  close(): void {
    if (this.done) return;
    this.done = true;
    this.unsubscribe?.();
    ticker.delete(this);
    this.onClose?.();
  }
}

/**
 * A snapshot of the run, then its events from the Redis stream after `Last-Event-ID` (all of
 * them on a first connect), ending after the terminal event. Any API process can serve any run.
 * Live events come from the process-wide hub (one Redis reader for every stream); older ones
 * from one XRANGE at connect. Ids at or before the last one sent are skipped, so there is no gap
 * and no duplicate.
 */
export function streamRunEvents(c: Context<AppEnv>, runId: string, onClose?: () => void): Response {
  const { db, redis, queues, logger, env } = c.var.deps;
  const key = runEventsKey(queues.prefix, runId);
  const lastHeader = c.req.header("last-event-id")?.trim() ?? "";
  const last = STREAM_ID.test(lastHeader) ? lastHeader : "0-0";
  const stream = new RunStream(key, runId, db, redis, last, env.MAX_ACTIVE_RUNS_PER_USER);
  stream.onClose = onClose;
  const { sink, response } = openSseSink(c, () => stream.close());
  stream.sink = sink;
  void stream.start(logger);
  return response;
}
