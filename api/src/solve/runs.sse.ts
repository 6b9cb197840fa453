import type { Context } from "hono";
import { streamSSE } from "hono/streaming";
import type { SolveRun } from "@fixloop/db";
import { runEventsKey, type RunEvent } from "@fixloop/worker/contract";
import { parseEntry } from "@fixloop/worker/pipeline/run.events";
import type { AppEnv } from "../deps";
import { openSseStreams } from "../admin/metrics.registry";
import { presentRun, runSteps } from "./runs.repository";

/** XREAD blocks this long, then a heartbeat comment goes out (proxies drop idle streams). */
export const HEARTBEAT_MS = 10_000;
const STREAM_ID = /^\d+-\d+$/;
const TERMINAL = new Set(["completed", "failed", "cancelled"]);

function sseOf(ev: RunEvent): { event: string; data: unknown } {
  switch (ev.type) {
    case "step":
      return { event: "step", data: { step: ev.step, status: ev.status, detail: ev.detail, at: ev.at } };
    case "completed":
      return { event: "completed", data: { solutionId: ev.solutionId } };
    case "failed":
      return { event: "failed", data: { error: ev.error } };
    case "cancelled":
      return { event: "cancelled", data: { error: { code: "run.cancelled", message: "The run was cancelled" } } };
  }
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
 */
export function streamRunEvents(c: Context<AppEnv>, runId: string) {
  const { db, redis, queues } = c.var.deps;
  const key = runEventsKey(queues.prefix, runId);
  const lastHeader = c.req.header("last-event-id")?.trim() ?? "";
  c.header("X-Accel-Buffering", "no");
  c.header("Cache-Control", "no-cache, no-transform");
  return streamSSE(c, async (stream) => {
    const reader = redis.duplicate({ enableOfflineQueue: true, maxRetriesPerRequest: null, lazyConnect: false });
    reader.on("error", () => {});
    let open = true;
    openSseStreams.inc();
    stream.onAbort(() => {
      open = false;
      reader.disconnect();
    });
    try {
      const load = () => db.selectFrom("solve_runs").selectAll().where("id", "=", runId).executeTakeFirstOrThrow();
      const run = await load();
      await stream.writeSSE({ event: "snapshot", data: JSON.stringify(presentRun(run, await runSteps(db, runId))) });
      let last = STREAM_ID.test(lastHeader) ? lastHeader : "0";
      /** Sends what the stream holds after `last`; true once the terminal event went out. */
      const relay = async (blockMs: number | null): Promise<{ ended: boolean; count: number }> => {
        const res = blockMs === null
          ? await reader.xread("COUNT", 100, "STREAMS", key, last)
          : await reader.xread("COUNT", 100, "BLOCK", blockMs, "STREAMS", key, last);
        const entries = res?.[0]?.[1] ?? [];
        for (const [id, fields] of entries) {
          last = id;
          const ev = parseEntry(fields);
          if (!ev) continue;
          const { event, data } = sseOf(ev);
          await stream.writeSSE({ event, id, data: JSON.stringify(data) });
          if (TERMINAL.has(ev.type)) return { ended: true, count: entries.length };
        }
        return { ended: false, count: entries.length };
      };
      let block: number | null = TERMINAL.has(run.status) ? null : HEARTBEAT_MS;
      while (open) {
        const r = await relay(block);
        if (r.ended) return;
        if (r.count) continue;
        // Nothing new: if Postgres says the run ended, its terminal event was lost or expired; send it from there.
        const end = terminalFromRun(await load());
        if (end) {
          if ((await relay(null)).ended) return;
          const { event, data } = sseOf(end);
          await stream.writeSSE({ event, data: JSON.stringify(data) });
          return;
        }
        if (block !== null) await stream.write(": heartbeat\n\n");
        block = HEARTBEAT_MS;
      }
    } finally {
      openSseStreams.dec();
      reader.disconnect();
    }
  });
}
