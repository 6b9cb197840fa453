import { runs } from "@fixloop/db";
import type { WorkerContext } from "../context";

/** How often a running solve reads its cancel flag in Postgres, beside the cancel channel. */
export const CANCEL_POLL_MS = 1_000;

/**
 * The signal a solve runs under: aborted by the cancel channel (the fast path: the API publishes,
 * the worker holding the job aborts it) or, should that message be lost (Redis pub/sub delivers at
 * most once; a subscriber that reconnects misses what was sent meanwhile), by the run's cancel flag
 * in Postgres, read every `everyMs`. Cancel is then honoured within about a second either way.
 */
export function watchCancel(
  ctx: Pick<WorkerContext, "db" | "logger">,
  runId: string,
  signal: AbortSignal,
  everyMs = CANCEL_POLL_MS,
): { signal: AbortSignal; stop(): void } {
  const own = new AbortController();
  const follow = () => own.abort(signal.reason);
  if (signal.aborted) follow();
  else signal.addEventListener("abort", follow, { once: true });
  let reading = false;
  const timer = setInterval(() => {
    if (reading || own.signal.aborted) return;
    reading = true;
    runs
      .cancelRequested(ctx.db, runId)
      .then(
        (requested) => {
          if (!requested || own.signal.aborted) return;
          ctx.logger.info({ runId }, "run cancelled (flag read in Postgres)");
          own.abort(new Error("cancelled by the user"));
        },
        (err: Error) => ctx.logger.warn({ runId, err: err.message }, "could not read the run's cancel flag"),
      )
      .finally(() => (reading = false));
  }, everyMs);
  timer.unref();
  return {
    signal: own.signal,
    stop() {
      clearInterval(timer);
      signal.removeEventListener("abort", follow);
    },
  };
}
