import { describe, expect, it } from "vitest";
import { createTestApp } from "../../test/testing";

describe("operations endpoints", () => {
  it("shows bull-board only to ADMIN_GITHUB_LOGINS users", async () => {
    const t = await createTestApp({ ADMIN_GITHUB_LOGINS: "boss" });
    const admin = await t.loginAs({ username: "boss" });
    const other = await t.loginAs({ username: "someone" });
    expect((await t.app.request("/admin/queues")).status).toBe(401);
    expect((await t.app.request("/admin/queues", { headers: other.headers })).status).toBe(404);
    const res = await t.app.request("/admin/queues", { headers: admin.headers });
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toMatch(/bull/i);
    // Its page stays inside our CSP: no third-party stylesheet (style-src is 'self').
    expect(html).not.toContain("fonts.googleapis.com");
    expect(html).toContain('rel="stylesheet"');
    const api = await t.app.request("/admin/queues/api/queues", { headers: other.headers });
    expect(api.status).toBe(404);
  });

  it("exposes Prometheus metrics for queues, runs, SSE streams, step durations and tokens", async () => {
    const t = await createTestApp();
    await t.deps.queues.sync.add("x", { kind: "repositories", userId: "00000000-0000-4000-8000-000000000000" });
    const res = await t.app.request("/metrics");
    expect(res.status).toBe(200);
    const text = await res.text();
    expect(text).toMatch(/fixloop_queue_jobs\{queue="sync",state="waiting"\} 1/);
    for (const name of [
      "fixloop_sse_open_streams",
      "fixloop_runs",
      "fixloop_step_duration_seconds",
      "fixloop_model_tokens",
    ]) {
      expect(text).toContain(`# HELP ${name} `);
    }
  });
});
