import { Gauge, Registry, collectDefaultMetrics } from "prom-client";

/** The API process's Prometheus registry; figures owned by other processes are read from Postgres/Redis at scrape time. */
export const metricsRegistry = new Registry();
collectDefaultMetrics({ register: metricsRegistry, prefix: "fixloop_api_" });

export const openSseStreams = new Gauge({
  name: "fixloop_sse_open_streams",
  help: "Run event streams (SSE) currently open on this API process",
  registers: [metricsRegistry],
});
