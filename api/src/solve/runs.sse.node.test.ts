import http from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { serve } from "@hono/node-server";
import { createTestStack, type TestStack } from "../../test/stack";
import { runEventsKey } from "@fixloop/contract";
import { openSseStreams } from "../admin/metrics.registry";
import { eventually, insertIssue, insertRun } from "@fixloop/testkit";
import { readSse } from "../../test/sse.testkit";
import { HeartbeatTicker } from "./sse.heartbeat";

// The events route under a real @hono/node-server, where frames go straight to the Node response.
let stack: TestStack;
let server: http.Server;
let base: string;
let headers: Record<string, string>;
let userId: string;

beforeAll(async () => {
  stack = await createTestStack({ workers: false, logLevel: "warn" });
  const me = await stack.signIn("octocat");
  headers = me.headers;
  userId = me.user._id;
  server = await new Promise<http.Server>((resolve) => {
    const s = serve({ fetch: stack.app.fetch, port: 0, hostname: "127.0.0.1" }, () => resolve(s as http.Server));
  });
  const addr = server.address();
  base = `http://127.0.0.1:${typeof addr === "object" && addr ? addr.port : 0}`;
});
afterAll(async () => {
  server?.closeAllConnections();
  await new Promise((r) => server?.close(r));
});

async function newRun(n: number) {
  const issue = await insertIssue(stack.db, userId, { number: 700 + n });
  const run = await insertRun(stack.db, {
    user_id: userId,
    issue_id: issue.id,
    model_id: "m",
    status: "running",
    current_step: "analyzing",
    started_at: new Date(),
  });
  return { id: run.id, key: runEventsKey(stack.prefix, run.id) };
}
const step = (info: string) =>
  JSON.stringify({
    type: "step",
    step: "analyzing",
    status: "running",
    detail: { files: [], info: [info], warnings: [] },
    at: new Date().toISOString(),
  });
const openGauge = async () => (await openSseStreams.get()).values.find((v) => v.labels.kind === "run")?.value ?? 0;

describe("run events over node:http", () => {
  it("sends the snapshot, stored and live events with stream ids, resumes after Last-Event-ID and ends after the terminal event", async () => {
    const run = await newRun(1);
    const first = await stack.redis.xadd(run.key, "*", "data", step("stored"));
    const res = await fetch(`${base}/api/runs/${run.id}/events`, { headers });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/event-stream");
    expect(res.headers.get("x-accel-buffering")).toBe("no");
    expect(res.headers.get("x-content-type-options")).toBe("nosniff");
    expect(res.headers.get("x-hono-already-sent")).toBeNull();
    const live = ["live1", "live2"];
    const got = await readSse(res, (e) => {
      if (e.event === "step" && (e.data as { detail: { info: string[] } }).detail.info[0] === "stored") {
        void (async () => {
          for (const l of live) await stack.redis.xadd(run.key, "*", "data", step(l));
          await stack.redis.xadd(
            run.key,
            "*",
            "data",
            JSON.stringify({ type: "cancelled", at: new Date().toISOString() }),
          );
        })();
      }
    });
    expect(got.map((e) => e.event)).toEqual(["snapshot", "step", "step", "step", "cancelled"]);
    const stored = (await stack.redis.xrange(run.key, "-", "+")).map(([id]) => id);
    expect(got.slice(1).map((e) => e.id)).toEqual(stored);
    expect(got[1]?.id).toBe(first);

    const again = await readSse(
      await fetch(`${base}/api/runs/${run.id}/events`, { headers: { ...headers, "last-event-id": stored[1] ?? "" } }),
    );
    expect(again.map((e) => e.id)).toEqual([undefined, ...stored.slice(2)]);
  });

  it("releases the stream (gauge, hub subscription) when the client goes away", async () => {
    const run = await newRun(2);
    const before = await openGauge();
    const ac = new AbortController();
    const res = await fetch(`${base}/api/runs/${run.id}/events`, { headers, signal: ac.signal });
    await readSse(res, (e) => e.event !== "snapshot");
    expect(await openGauge()).toBe(before + 1);
    ac.abort();
    await eventually(async () => (await openGauge()) === before, { what: "the stream's gauge to drop", interval: 10 });
    expect(await openGauge()).toBe(before);
  });

  it("answers 404 for another user's run", async () => {
    const run = await newRun(3);
    const other = await stack.signIn("monalisa");
    const res = await fetch(`${base}/api/runs/${run.id}/events`, { headers: other.headers });
    expect(res.status).toBe(404);
  });
});

describe("heartbeat ticker", () => {
  it("reports, grouped by key, only the members that wrote nothing since the previous tick", () => {
    const seen: string[][] = [];
    const t = new HeartbeatTicker<{ wrote: boolean; key: string; name: string }>(60_000, (g) =>
      seen.push([...g].map(([k, ms]) => `${k}:${ms.map((m) => m.name).join(",")}`)),
    );
    const a = { wrote: true, key: "r1", name: "a" };
    const b = { wrote: false, key: "r1", name: "b" };
    const c = { wrote: false, key: "r2", name: "c" };
    [a, b, c].forEach((m) => t.add(m));
    t.tick();
    t.tick();
    t.delete(b);
    t.delete(c);
    t.tick();
    t.delete(a);
    expect(seen).toEqual([["r1:b", "r2:c"], ["r1:a,b", "r2:c"], ["r1:a"]]);
    expect(t.size).toBe(0);
  });
});
