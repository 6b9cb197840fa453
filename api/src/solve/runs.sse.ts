import type { Context } from "hono";
import { streamSSE } from "hono/streaming";
import type { SolveRun } from "@fixloop/db";
import { runEventsKey, type RunEvent } from "@fixloop/worker/contract";
import { parseEntry } from "@fixloop/worker/pipeline/run.events";
import type { AppEnv } from "../deps";
import { openSseStreams } from "../admin/metrics.registry";
import { presentRun, runSteps } from "./runs.repository";
import { compareIds, runEventHub, type HubEntry } from "./run-events.hub";

/** Without news for this long, a heartbeat comment goes out (proxies drop idle streams) and Postgres is asked whether the run ended. */
export const HEARTBEAT_MS = 10_000;
const STREAM_ID = /^\d+-\d+$/;
const TERMINAL = new Set<RunEvent["type"]>(["completed", "failed", "cancelled"]);

/** Wire form of an event, serialised once however many streams carry it. */
const wire = new WeakMap<RunEvent, { event: string; data: string }>();
function sseOf(ev: RunEvent): { event: string; data: string } {
  let w = wire.get(ev);
  if (w) return w;
  switch (ev.type) {
    case "step":
      w = { event: "step", data: JSON.stringify({ step: ev.step, status: ev.status, detail: ev.detail, at: ev.at }) };
      break;
    case "completed":
      w = { event: "completed", data: JSON.stringify({ solutionId: ev.solutionId }) };
      break;
    case "failed":
      w = { event: "failed", data: JSON.stringify({ error: ev.error }) };
      break;
    case "cancelled":
      w = { event: "cancelled", data: JSON.stringify({ error: { code: "run.cancelled", message: "The run was cancelled" } }) };
      break;
  }
  wire.set(ev, w);
  return w;
}

function terminalFromRun(run: SolveRun): RunEvent | null {
  const at = (run.finished_at ?? new Date()).toISOString();
  if (run.status === "completed" && run.solution_id) return { type: "completed", solutionId: run.solution_id, at };
  if (run.status === "failed") return { type: "failed", error: { code: run.error_code ?? "run.failed", message: run.error_message ?? "The run failed" }, at };
  if (run.status === "cancelled") return { type: "cancelled", at };
  return null;
}

/**
 * A snapshot of the run, then its events from the Redis stream after `Last-Event-ID` (all of
 * them on a first connect), ending after the terminal event. Any API process can serve any run.
 * Live events come from the process-wide hub (one Redis reader for every stream); older ones
 * from one XRANGE at connect. Ids at or before the last one sent are skipped, so there is no gap
 * and no duplicate.
 */
export function streamRunEvents(c: Context<AppEnv>, runId: string) {
  const { db, redis, queues } = c.var.deps;
  const key = runEventsKey(queues.prefix, runId);
  const lastHeader = c.req.header("last-event-id")?.trim() ?? "";
  c.header("X-Accel-Buffering", "no");
  c.header("Cache-Control", "no-cache, no-transform");
  return streamSSE(c, async (stream) => {
    let open = true;
    const pending: HubEntry[] = [];
    let wakeUp: (() => void) | null = null;
    const unsubscribe = runEventHub(redis).subscribe(key, (entries) => {
      pending.push(...entries);
      wakeUp?.();
    });
    openSseStreams.inc();
    stream.onAbort(() => {
      open = false;
      wakeUp?.();
    });
    let last = STREAM_ID.test(lastHeader) ? lastHeader : "0-0";
    /** Sends entries newer than `last`; true once the terminal event went out. */
    const send = async (entries: HubEntry[]): Promise<boolean> => {
      for (const { id, event } of entries) {
        if (compareIds(id, last) <= 0) continue;
        last = id;
        const w = sseOf(event);
        await stream.writeSSE({ event: w.event, id, data: w.data });
        if (TERMINAL.has(event.type)) return true;
      }
      return false;
    };
    const catchUp = async () => {
      const rows = await redis.xrange(key, last === "0-0" ? "-" : `(${last}`, "+");
      return rows.flatMap(([id, fields]) => {
        const event = parseEntry(fields);
        return event ? [{ id, event }] : [];
      });
    };
    try {
      const load = () => db.selectFrom("solve_runs").selectAll().where("id", "=", runId).executeTakeFirstOrThrow();
      const run = await load();
      await stream.writeSSE({ event: "snapshot", data: JSON.stringify(presentRun(run, await runSteps(db, runId))) });
      if (await send(await catchUp())) return;
      let checkDb = TERMINAL.has(run.status as RunEvent["type"]);
      while (open) {
        if (pending.length && (await send(pending.splice(0)))) return;
        if (checkDb) {
          // Quiet and Postgres says the run ended: its terminal event was lost or expired; send it from there.
          const end = terminalFromRun(await load());
          if (end) {
            if (await send(await catchUp())) return;
            const w = sseOf(end);
            await stream.writeSSE({ event: w.event, data: w.data });
            return;
          }
          await stream.write(": heartbeat\n\n");
        }
        const quiet = await new Promise<boolean>((resolve) => {
          const timer = setTimeout(() => resolve(true), HEARTBEAT_MS);
          wakeUp = () => {
            clearTimeout(timer);
            resolve(false);
          };
          if (pending.length || !open) wakeUp();
        });
        wakeUp = null;
        checkDb = quiet;
      }
    } finally {
      unsubscribe();
      openSseStreams.dec();
    }
  });
}
