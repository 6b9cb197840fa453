import { Gauge, Registry, collectDefaultMetrics } from "prom-client";

/** The API process's Prometheus registry; figures owned by other processes are read from Postgres/Redis at scrape time. */
export const metricsRegistry = new Registry();
collectDefaultMetrics({ register: metricsRegistry, prefix: "fixloop_api_" });

/** The kinds of live stream (SSE) a user can hold open; each takes one of the user's slots (sse.limit.ts). */
export const LIVE_STREAM_KINDS = ["run", "tests", "ops"] as const;
export type LiveStreamKind = (typeof LIVE_STREAM_KINDS)[number];

export const openSseStreams = new Gauge({
  name: "fixloop_sse_open_streams",
  help: "Live streams (SSE) currently open on this API process, by kind: run events, tests re-run output, operations",
  labelNames: ["kind"] as const,
  registers: [metricsRegistry],
});
// Every kind is shown from the start, at 0, so a dashboard's series exist before the first stream.
for (const kind of LIVE_STREAM_KINDS) openSseStreams.set({ kind }, 0);
