import type { Redis } from "ioredis";
import { runs, type Db, type SolveRun } from "@fixloop/db";
import { isTerminalRunStatus, runEventsKey, TERMINAL_EVENTS } from "@fixloop/contract";
import { parseEntry } from "@fixloop/runtime";

/** Waits (following the run's event stream) until the run ends or the timeout passes; returns the run as stored. */
export async function waitForRunEnd(
  db: Db,
  redis: Redis,
  prefix: string,
  runId: string,
  timeoutMs: number,
): Promise<SolveRun> {
  const load = () => runs.loadExisting(db, runId);
  const reader = redis.duplicate({ enableOfflineQueue: true, maxRetriesPerRequest: null });
  reader.on("error", () => {});
  const deadline = Date.now() + timeoutMs;
  let last = "0";
  try {
    for (;;) {
      const run = await load();
      if (isTerminalRunStatus(run.status) || Date.now() >= deadline) return run;
      const block = Math.max(1, Math.min(5_000, deadline - Date.now()));
      const res = await reader.xread("COUNT", 100, "BLOCK", block, "STREAMS", runEventsKey(prefix, runId), last);
      for (const [id, fields] of res?.[0]?.[1] ?? []) {
        last = id;
        const ev = parseEntry(fields);
        if (ev && TERMINAL_EVENTS.has(ev.type)) return load();
      }
    }
  } finally {
    reader.disconnect();
  }
}
