import { describe, expect, it } from "vitest";
import { createTestApp, errorOf } from "../../test/testing";

describe("HTTP guards", () => {
  it("sets security headers on every response, with a strict CSP", async () => {
    const { app } = await createTestApp();
    const res = await app.request("/api/health");
    expect(res.headers.get("x-content-type-options")).toBe("nosniff");
    const csp = res.headers.get("content-security-policy") ?? "";
    expect(csp).toContain("frame-ancestors 'none'");
    // Scripts from self and the payment checkout only (here Razorpay's default host).
    expect(csp).toMatch(/script-src 'self' https:\/\/checkout\.razorpay\.com(;|$)/);
  });

  it("refuses a cookie-authenticated state change from another origin", async () => {
    const t = await createTestApp();
    const { headers } = await t.loginAs();
    const res = await t.app.request("/api/auth/logout", {
      method: "POST",
      headers: { ...headers, origin: "https://evil.example" },
    });
    expect(res.status).toBe(403);
    expect(await res.json()).toEqual({
      error: { code: "request.cross_origin", message: "Cross-origin request refused" },
    });
  });

  it("refuses a cross-origin GET of the repository list, which starts a sync, and enqueues nothing", async () => {
    const t = await createTestApp();
    const { headers } = await t.loginAs();
    const before = await t.deps.queues.sync.getJobCounts("waiting", "active", "completed", "failed", "delayed");
    const cases: Record<string, string>[] = [
      { origin: "https://evil.example" },
      { referer: "https://evil.example/page" },
      {},
    ];
    for (const h of cases) {
      const res = await t.app.request("/api/github/repositories", { headers: { cookie: headers.cookie, ...h } });
      expect(res.status).toBe(403);
      expect((await errorOf(res)).code).toBe("request.cross_origin");
    }
    expect(await t.deps.queues.sync.getJobCounts("waiting", "active", "completed", "failed", "delayed")).toEqual(
      before,
    );
  });

  it("treats Origin: null as cross-origin, even with our own Referer", async () => {
    const t = await createTestApp();
    const { headers } = await t.loginAs();
    const res = await t.app.request("/api/auth/logout", {
      method: "POST",
      headers: { ...headers, origin: "null", referer: "http://localhost:3000/dashboard" },
    });
    expect(res.status).toBe(403);
    expect((await errorOf(res)).code).toBe("request.cross_origin");
  });

  it("answers 401 to an invalid bearer token and never falls back to the session cookie", async () => {
    const t = await createTestApp();
    const { headers } = await t.loginAs();
    for (const authorization of ["Bearer not-a-token", "Bearer flp_wrong", "Basic b2N0b2NhdDp4"]) {
      const write = await t.app.request("/api/auth/logout", {
        method: "POST",
        headers: { cookie: headers.cookie ?? "", origin: "https://evil.example", authorization },
      });
      expect(write.status, authorization).toBe(authorization.startsWith("Bearer") ? 401 : 403);
      const read = await t.app.request("/api/auth/me", { headers: { cookie: headers.cookie ?? "", authorization } });
      expect(read.status, authorization).toBe(401);
    }
    expect((await t.app.request("/api/auth/me", { headers })).status).toBe(200);
  });

  it("rejects bodies over the limit before parsing them", async () => {
    const t = await createTestApp({ MAX_JSON_BODY_BYTES: "1000" });
    const { headers } = await t.loginAs();
    const res = await t.app.request("/api/auth/session", {
      method: "POST",
      headers: { ...headers, "content-type": "application/json" },
      body: JSON.stringify({ token: "x".repeat(5000) }),
    });
    expect(res.status).toBe(413);
    expect((await res.json()).error.code).toBe("request.too_large");
  });

  it("answers 429 with retry-after past the limit", async () => {
    const t = await createTestApp({ RATE_LIMITS_ENABLED: "true", RATE_LIMITS: "signin=3/60" });
    const statuses: number[] = [];
    let retryAfter: string | null = null;
    for (let i = 0; i < 5; i++) {
      const res = await t.app.request("/api/auth/session", {
        method: "POST",
        headers: { "content-type": "application/json", origin: "http://localhost:3000" },
        body: JSON.stringify({ token: "nope" }),
      });
      statuses.push(res.status);
      if (res.status === 429) retryAfter = res.headers.get("retry-after");
    }
    expect(statuses.filter((s) => s === 429)).toHaveLength(2);
    expect(Number(retryAfter)).toBeGreaterThan(0);
  });
});
