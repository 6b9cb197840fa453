import http from "node:http";
import { percentile } from "./report";

export interface LoadResult {
  perSecond: number;
  p50: number;
  p99: number;
  errors: number;
  latencies: number[];
  seconds: number;
}

/** Pools rounds measured alternately (so a noisy neighbour hits both sides alike). */
export function pool(rounds: LoadResult[]): LoadResult {
  const latencies = rounds.flatMap((r) => r.latencies);
  const seconds = rounds.reduce((n, r) => n + r.seconds, 0);
  const errors = rounds.reduce((n, r) => n + r.errors, 0);
  return {
    perSecond: latencies.length / seconds,
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
    errors,
    latencies,
    seconds,
  };
}

function get(url: URL, headers: Record<string, string>, agent: http.Agent): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = http.get(url, { headers, agent }, (res) => {
      res.on("data", () => {});
      res.on("end", () => resolve(res.statusCode ?? 0));
      res.on("error", reject);
    });
    req.on("error", reject);
  });
}

/** `concurrency` keep-alive clients each sending GET `url` back to back for `seconds`. */
export async function loadGet(
  url: string,
  headers: Record<string, string>,
  opts: { concurrency?: number; seconds?: number } = {},
): Promise<LoadResult> {
  const concurrency = opts.concurrency ?? 50;
  const agent = new http.Agent({ keepAlive: true, maxSockets: concurrency });
  const target = new URL(url);
  const latencies: number[] = [];
  let errors = 0;
  const t0 = performance.now();
  const until = t0 + (opts.seconds ?? 5) * 1000;
  const client = async () => {
    while (performance.now() < until) {
      const s = performance.now();
      const status = await get(target, headers, agent).catch(() => 0);
      latencies.push(performance.now() - s);
      if (status !== 200) errors++;
    }
  };
  await Promise.all(Array.from({ length: concurrency }, client));
  const elapsed = (performance.now() - t0) / 1000;
  agent.destroy();
  return {
    perSecond: latencies.length / elapsed,
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
    errors,
    latencies,
    seconds: elapsed,
  };
}
