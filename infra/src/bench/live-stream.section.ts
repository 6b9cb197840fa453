import { Redis } from "ioredis";
import { runs } from "@fixloop/db";
import { openRunEventLog } from "@fixloop/runtime";
import { seedIssues, startedRun } from "./bench-seed";
import { startBenchStack } from "./bench-stack";
import { forkBench, treeRssKiB } from "./child";
import { percentile, type Figure } from "./report";
import type { BenchContext, Section } from "./section.types";

const LEVELS = [1, 100, 1000];
const EVENTS = 15;
const GAP_MS = 200;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const now = () => performance.timeOrigin + performance.now();

interface Target {
  url: string;
  headers: Record<string, string>;
  pid: number;
  /** Publishes one step event whose detail carries `t=<ms since epoch>`. */
  publish(t: number): Promise<void> | void;
  /** Ends the streams (terminal event), when the server supports it. */
  end?(): Promise<void>;
}

interface Measured {
  p50: number;
  p99: number;
  perStreamKiB: number;
  received: number;
}

const stepData = (t: number) => ({
  step: "analyzing" as const,
  status: "running" as const,
  detail: { files: [], info: [`t=${t.toFixed(3)}`], warnings: [] },
  at: new Date(t).toISOString(),
});

async function measure(target: Target, count: number): Promise<Measured> {
  const client = forkBench("sse-client-child.ts");
  try {
    await sleep(300);
    const before = treeRssKiB(target.pid);
    client.send({ start: { url: target.url, count, headers: target.headers, expect: EVENTS } });
    await client.next((m) => m.ready === true, 90_000);
    await sleep(1_000);
    const open = treeRssKiB(target.pid);
    const result = client.next<{ latencies: number[]; complete: number }>((m) => Array.isArray(m.latencies), 60_000);
    for (let i = 0; i < EVENTS; i++) {
      await target.publish(now());
      await sleep(GAP_MS);
    }
    const late = setTimeout(() => client.send({ finish: true }), 10_000);
    const r = await result;
    clearTimeout(late);
    if (r.complete < count)
      process.stderr.write(`  live-stream: only ${r.complete}/${count} streams got all ${EVENTS} events\n`);
    await target.end?.();
    return {
      p50: percentile(r.latencies, 50),
      p99: percentile(r.latencies, 99),
      perStreamKiB: (open - before) / count,
      received: r.latencies.length,
    };
  } finally {
    await client.stop();
  }
}

export const liveStreamSection: Section = {
  name: "live-stream",
  async run(ctx: BenchContext): Promise<Figure[]> {
    const bs = await startBenchStack(ctx, "live");
    const redis = new Redis(ctx.services.redisUrl);
    const bare = forkBench("bare-sse-child.ts");
    const figures: Figure[] = [];
    try {
      const me = await bs.signIn("octocat");
      const { url: bareUrl } = await bare.next<{ url: string }>((m) => typeof m.url === "string");
      const apiPid = bs.stack.api.proc.pid ?? 0;
      for (const count of LEVELS) {
        const [issueId] = await seedIssues(bs.db, me.userId, [9000 + count]);
        const runId = await startedRun(bs.db, me.userId, issueId!);
        await runs.enterStep(bs.db, runId, "analyzing");
        const events = await openRunEventLog(redis, bs.prefix, runId);
        const ours = await measure(
          {
            url: `${bs.api}/api/runs/${runId}/events`,
            headers: me.headers,
            pid: apiPid,
            publish: async (t) => void (await events.emit({ type: "step", ...stepData(t) })),
            end: async () => {
              const cancelled = { code: "run.cancelled", message: "The run was cancelled" };
              await runs.end(bs.db, { id: runId, issue_id: issueId!, kind: "solve" }, "cancelled", cancelled);
              await events.emit({ type: "cancelled", at: new Date().toISOString() });
            },
          },
          count,
        );
        const base = await measure(
          {
            url: bareUrl,
            headers: {},
            pid: bare.proc.pid ?? 0,
            publish: (t) => bare.send({ push: JSON.stringify(stepData(t)) }),
          },
          count,
        );
        const s = `live stream (${count} subscriber${count > 1 ? "s" : ""})`;
        const b = { section: s, unit: "ms", baselineName: "bare node:http SSE" };
        const atMax = count === 1000;
        figures.push(
          { ...b, name: "stored-to-received p50", value: ours.p50, baseline: base.p50 },
          {
            ...b,
            name: "stored-to-received p99",
            value: ours.p99,
            baseline: base.p99,
            ...(atMax ? { target: "< 50 ms", holds: ours.p99 < 50 } : {}),
          },
        );
        if (count >= 100) {
          const kib = {
            section: s,
            name: "memory per open stream (API RSS delta)",
            value: ours.perStreamKiB,
            unit: "KiB",
            baseline: base.perStreamKiB,
            baselineName: "bare node:http SSE",
          };
          figures.push(atMax ? { ...kib, target: "< 64 KiB", holds: ours.perStreamKiB < 64 } : kib);
        }
      }
      return figures;
    } finally {
      await bare.stop();
      redis.disconnect();
      await bs.stop();
    }
  },
};
