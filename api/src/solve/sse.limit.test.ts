import { describe, expect, it } from "vitest";
import { insertIssue, seedSolution } from "@fixloop/testkit";
import { createTestApp } from "../../test/testing";

describe("live run streams per user", () => {
  it("answers 429 past SSE_MAX_STREAMS_PER_USER and frees a slot when a stream closes", async () => {
    const t = await createTestApp({ SSE_MAX_STREAMS_PER_USER: "2" });
    const me = await t.loginAs();
    const other = await t.loginAs();
    const issue = await insertIssue(t.db, me.user.id, { number: 1 });
    const run = await t.db
      .insertInto("solve_runs")
      .values({ user_id: me.user.id, issue_id: issue.id, model_id: "llama-3.3-70b-versatile" })
      .returning("id")
      .executeTakeFirstOrThrow();
    const theirIssue = await insertIssue(t.db, other.user.id, { number: 1 });
    const theirRun = await t.db
      .insertInto("solve_runs")
      .values({ user_id: other.user.id, issue_id: theirIssue.id, model_id: "llama-3.3-70b-versatile" })
      .returning("id")
      .executeTakeFirstOrThrow();
    const open = (id: string, headers: Record<string, string>) => {
      const ctl = new AbortController();
      return { ctl, res: t.app.request(`/api/runs/${id}/events`, { headers, signal: ctl.signal }) };
    };

    const a = open(run.id, me.headers);
    const b = open(run.id, me.headers);
    expect([(await a.res).status, (await b.res).status]).toEqual([200, 200]);
    const c = await open(run.id, me.headers).res;
    expect(c.status).toBe(429);
    expect(((await c.json()) as { error: { code: string } }).error.code).toBe("sse.too_many_streams");
    // Another user's streams are counted apart.
    const theirs = open(theirRun.id, other.headers);
    expect((await theirs.res).status).toBe(200);

    a.ctl.abort();
    await new Promise((r) => setTimeout(r, 50));
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
    const run = await t.db
      .insertInto("solve_runs")
      .values({ user_id: me.user.id, issue_id: issueId, model_id: "llama-3.3-70b-versatile" })
      .returning("id")
      .executeTakeFirstOrThrow();
    const open = (path: string) => {
      const ctl = new AbortController();
      return { ctl, res: t.app.request(path, { headers: me.headers, signal: ctl.signal }) };
    };
    const rerun = `/api/validations/${solutionId}/tests/events`;

    const a = open(`/api/runs/${run.id}/events`);
    const b = open(rerun);
    expect([(await a.res).status, (await b.res).status]).toEqual([200, 200]);
    expect((await b.res).headers.get("content-type")).toContain("text/event-stream");
    const c = await open(rerun).res;
    expect(c.status).toBe(429);
    expect(((await c.json()) as { error: { code: string } }).error.code).toBe("sse.too_many_streams");

    b.ctl.abort();
    await new Promise((r) => setTimeout(r, 50));
    const d = open(rerun);
    expect((await d.res).status).toBe(200);
    for (const s of [a, d]) s.ctl.abort();
  });
});
