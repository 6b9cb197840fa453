import { describe, expect, it } from "vitest";
import { eventually, insertIssue, insertRun, seedSolution } from "@fixloop/testkit";
import { createApp } from "../app";
import { createTestApp, errorOf } from "../../test/testing";
import { streamSlotsKey } from "./sse.limit";

type TestApp = Awaited<ReturnType<typeof createTestApp>>;
/** `fixloop_sse_open_streams{kind}` as /metrics shows it to an operator. */
async function openOfKind(t: TestApp, kind: "run" | "tests" | "ops"): Promise<number> {
  const text = await (await t.app.request("/metrics")).text();
  const line = new RegExp(`^fixloop_sse_open_streams\\{kind="${kind}"\\} (\\d+)$`, "m").exec(text);
  if (!line) throw new Error(`no fixloop_sse_open_streams{kind="${kind}"} in /metrics`);
  return Number(line[1]);
}

describe("live streams per user", () => {
  it("answers 429 past SSE_MAX_STREAMS_PER_USER and frees a slot when a stream closes", async () => {
    const t = await createTestApp({ SSE_MAX_STREAMS_PER_USER: "2" });
    const me = await t.loginAs();
    const other = await t.loginAs();
    const issue = await insertIssue(t.db, me.user.id, { number: 1 });
    const run = await insertRun(t.db, { user_id: me.user.id, issue_id: issue.id });
    const theirIssue = await insertIssue(t.db, other.user.id, { number: 1 });
    const theirRun = await insertRun(t.db, { user_id: other.user.id, issue_id: theirIssue.id });
    const open = (id: string, headers: Record<string, string>) => {
      const ctl = new AbortController();
      return { ctl, res: t.app.request(`/api/runs/${id}/events`, { headers, signal: ctl.signal }) };
    };

    const a = open(run.id, me.headers);
    const b = open(run.id, me.headers);
    expect([(await a.res).status, (await b.res).status]).toEqual([200, 200]);
    const c = await open(run.id, me.headers).res;
    expect(c.status).toBe(429);
    expect((await errorOf(c)).code).toBe("sse.too_many_streams");
    // Another user's streams are counted apart.
    const theirs = open(theirRun.id, other.headers);
    expect((await theirs.res).status).toBe(200);

    a.ctl.abort();
    // Its slot is released (the other user's stream has its own).
    await eventually(async () => (await t.redis.zcard(streamSlotsKey(t.prefix, me.user.id))) === 1);
    const d = open(run.id, me.headers);
    expect((await d.res).status).toBe(200);
    for (const s of [b, d, theirs]) s.ctl.abort();
  });

  it("counts a solution's live tests re-run streams with the run streams, and frees the slot when one closes", async () => {
    const t = await createTestApp({ SSE_MAX_STREAMS_PER_USER: "2" });
    const me = await t.loginAs();
    const { issueId, solutionId } = await seedSolution(t.db, {
      userId: me.user.id,
      repoFullName: "hubot/markdown-lint",
      issueNumber: 3,
      files: [{ filename: "NOTE.md", action: "create", content: "# Note\n", originalContent: "" }],
    });
    const run = await insertRun(t.db, { user_id: me.user.id, issue_id: issueId });
    const open = (path: string) => {
      const ctl = new AbortController();
      return { ctl, res: t.app.request(path, { headers: me.headers, signal: ctl.signal }) };
    };
    const rerun = `/api/validations/${solutionId}/tests/events`;
    const [runsBefore, testsBefore] = [await openOfKind(t, "run"), await openOfKind(t, "tests")];

    const a = open(`/api/runs/${run.id}/events`);
    const b = open(rerun);
    expect([(await a.res).status, (await b.res).status]).toEqual([200, 200]);
    expect((await b.res).headers.get("content-type")).toContain("text/event-stream");
    const c = await open(rerun).res;
    expect(c.status).toBe(429);
    expect((await errorOf(c)).code).toBe("sse.too_many_streams");
    // The operator's gauge counts each open stream under its kind, and not the refused one.
    expect([await openOfKind(t, "run"), await openOfKind(t, "tests")]).toEqual([runsBefore + 1, testsBefore + 1]);

    b.ctl.abort();
    await eventually(async () => expect(await openOfKind(t, "tests")).toBe(testsBefore));
    const d = open(rerun);
    expect((await d.res).status).toBe(200);
    for (const s of [a, d]) s.ctl.abort();
  });

  it("counts an admin's operations streams with the run streams, and frees the slot when one closes", async () => {
    const t = await createTestApp({ SSE_MAX_STREAMS_PER_USER: "2", ADMIN_GITHUB_LOGINS: "boss" });
    const admin = await t.loginAs({ username: "boss" });
    const issue = await insertIssue(t.db, admin.user.id, { number: 1 });
    const run = await insertRun(t.db, { user_id: admin.user.id, issue_id: issue.id });
    const open = (path: string) => {
      const ctl = new AbortController();
      return { ctl, res: t.app.request(path, { headers: admin.headers, signal: ctl.signal }) };
    };

    const opsBefore = await openOfKind(t, "ops");
    const a = open("/api/ops/stream");
    const b = open("/api/ops/stream");
    expect([(await a.res).status, (await b.res).status]).toEqual([200, 200]);
    expect((await a.res).headers.get("content-type")).toContain("text/event-stream");
    expect(await t.redis.zcard(streamSlotsKey(t.prefix, admin.user.id))).toBe(2);
    expect(await openOfKind(t, "ops")).toBe(opsBefore + 2);
    for (const path of ["/api/ops/stream", `/api/runs/${run.id}/events`]) {
      const refused = await open(path).res;
      expect(refused.status, path).toBe(429);
      expect(await refused.json()).toEqual({
        error: {
          code: "sse.too_many_streams",
          message: "At most 2 live streams may be open at once; close one and try again",
        },
      });
    }

    a.ctl.abort();
    await eventually(async () => expect(await t.redis.zcard(streamSlotsKey(t.prefix, admin.user.id))).toBe(1));
    expect(await openOfKind(t, "ops")).toBe(opsBefore + 1);
    const c = open(`/api/runs/${run.id}/events`);
    expect((await c.res).status).toBe(200);
    for (const s of [b, c]) s.ctl.abort();
  });

  it("counts another API process's streams, and stops counting them within a lease once that process is gone", async () => {
    const t = await createTestApp({ SSE_MAX_STREAMS_PER_USER: "2", SSE_STREAM_LEASE_SECONDS: "3" });
    // A second API on the same database, Redis and prefix, with its own Redis client (its own slot registry).
    const otherRedis = t.redis.duplicate();
    const other = createApp({ ...t.deps, redis: otherRedis }, { serveWeb: false });
    const me = await t.loginAs();
    const issue = await insertIssue(t.db, me.user.id, { number: 1 });
    const run = await insertRun(t.db, { user_id: me.user.id, issue_id: issue.id });
    const path = `/api/runs/${run.id}/events`;
    const ctls: AbortController[] = [];
    const open = (app: typeof other) => {
      const ctl = new AbortController();
      ctls.push(ctl);
      return app.request(path, { headers: me.headers, signal: ctl.signal });
    };

    expect((await open(other)).status).toBe(200);
    expect((await open(other)).status).toBe(200);
    const refused = await open(t.app);
    expect(refused.status).toBe(429);
    expect(refused.headers.get("retry-after")).toBe("5");
    expect(await t.redis.zcard(streamSlotsKey(t.prefix, me.user.id))).toBe(2);

    // The other process dies with its streams open: nothing renews or releases them.
    otherRedis.disconnect();
    const t0 = Date.now();
    await eventually(async () => (await open(t.app)).status === 200, {
      what: "a stream to open once the gone process's leases lapse",
      timeout: 10_000,
      interval: 250,
    });
    expect(Date.now() - t0).toBeLessThan(4_500);
    for (const c of ctls) c.abort();
  });

  it("frees the slot of a client that left before its stream opened", async () => {
    const t = await createTestApp({ SSE_MAX_STREAMS_PER_USER: "2" });
    const me = await t.loginAs();
    const issue = await insertIssue(t.db, me.user.id, { number: 1 });
    const run = await insertRun(t.db, { user_id: me.user.id, issue_id: issue.id });
    const gone = new AbortController();
    gone.abort();
    const res = await t.app.request(`/api/runs/${run.id}/events`, { headers: me.headers, signal: gone.signal });
    expect(res.status).toBe(200);
    await eventually(async () => expect(await t.redis.zcard(streamSlotsKey(t.prefix, me.user.id))).toBe(0));
  });
});
