import type { AddressInfo } from "node:net";
import { serve } from "@hono/node-server";
import { afterEach, describe, expect, it, vi } from "vitest";
import { eventually } from "@fixloop/testkit";
import { createTestApp } from "../../test/testing";

const CHECKOUT = "https://checkout.razorpay.example/v1/checkout.js";
const csp = (res: Response) => res.headers.get("content-security-policy") ?? "";
const directive = (res: Response, name: string) =>
  csp(res)
    .split(";")
    .map((d) => d.trim())
    .find((d) => d.startsWith(`${name} `)) ?? "";

describe("security headers per page", () => {
  it("sends no referrer from the auth callback (it carries the one-time login code)", async () => {
    const { app } = await createTestApp();
    expect((await app.request("/auth/callback?token=abc")).headers.get("referrer-policy")).toBe("no-referrer");
    expect((await app.request("/api/auth/github")).headers.get("referrer-policy")).toBe("no-referrer");
    expect((await app.request("/dashboard")).headers.get("referrer-policy")).toBe("strict-origin-when-cross-origin");
  });

  it("sets HSTS only when served over HTTPS", async () => {
    const plain = await createTestApp({ PUBLIC_URL: "http://localhost:3000" });
    expect((await plain.app.request("/api/health")).headers.get("strict-transport-security")).toBeNull();
    const secure = await createTestApp({ PUBLIC_URL: "https://fixloop.example" });
    expect((await secure.app.request("/api/health")).headers.get("strict-transport-security")).toMatch(
      /max-age=\d{7,}/,
    );
  });

  it("allows the checkout host on every document (the SPA reaches pricing without a new one), nothing else", async () => {
    const { app } = await createTestApp({
      RAZORPAY_CHECKOUT_URL: CHECKOUT,
      RAZORPAY_API_URL: "https://api.razorpay.example",
    });
    const host = new URL(CHECKOUT).origin;
    for (const page of ["/", "/dashboard", "/pricing", "/profile-settings", "/validate/123", "/auth/callback"]) {
      const res = await app.request(page);
      expect(directive(res, "script-src"), page).toBe(`script-src 'self' ${host}`);
      expect(directive(res, "frame-src"), page).toBe(`frame-src ${host} https://api.razorpay.example`);
      expect(directive(res, "connect-src"), page).toBe(`connect-src 'self' ${host}`);
      expect(directive(res, "default-src"), page).toBe("default-src 'self'");
      expect(csp(res), page).not.toContain("unsafe-eval");
      expect(directive(res, "script-src"), page).not.toContain("unsafe-inline");
      expect(csp(res), page).toContain("frame-ancestors 'none'");
      expect(csp(res), page).toContain("object-src 'none'");
    }
  });

  it("sends the same headers over Node's HTTP server as in-process (they are set on Node's response there)", async () => {
    const { app } = await createTestApp({ PUBLIC_URL: "https://fixloop.example" });
    const server = serve({ fetch: app.fetch, port: 0, hostname: "127.0.0.1" });
    await new Promise((r) => server.once("listening", r));
    try {
      const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      for (const path of ["/api/health", "/api/auth/github", "/api/no-such-route", "/dashboard"]) {
        const overHttp = await fetch(`${base}${path}`, { redirect: "manual", headers: { "x-request-id": "abc-1" } });
        const inProcess = await app.request(path, { headers: { "x-request-id": "abc-1" } });
        for (const name of [
          "content-security-policy",
          "x-content-type-options",
          "x-frame-options",
          "cross-origin-opener-policy",
          "referrer-policy",
          "permissions-policy",
          "strict-transport-security",
          "x-request-id",
        ]) {
          expect(overHttp.headers.get(name), `${path} ${name}`).toBeTruthy();
          expect(overHttp.headers.get(name), `${path} ${name}`).toBe(inProcess.headers.get(name));
        }
        expect(overHttp.headers.get("x-request-id")).toBe("abc-1");
        expect(overHttp.headers.get("content-type")).toBe(inProcess.headers.get("content-type"));
      }
      // A malformed request id is replaced, not echoed.
      const forged = await fetch(`${base}/api/health`, { headers: { "x-request-id": "a b<script>" } });
      expect(forged.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
    } finally {
      server.close();
    }
  });

  it("lets avatars load from GitHub's avatar host and the GitHub host in use", async () => {
    const { app } = await createTestApp({
      GITHUB_WEB_URL: "http://127.0.0.1:3001",
      GITHUB_API_URL: "http://127.0.0.1:3001",
    });
    const img = directive(await app.request("/dashboard"), "img-src");
    expect(img).toBe("img-src 'self' data: https://avatars.githubusercontent.com http://127.0.0.1:3001");
  });
});

describe("same-origin guard", () => {
  it("refuses a cookie-authenticated change with no Origin and a foreign Referer, but lets bearer tokens through", async () => {
    const t = await createTestApp();
    const { headers } = await t.loginAs();
    const noOrigin = await t.app.request("/api/tokens", {
      method: "POST",
      headers: { cookie: headers.cookie, referer: "https://evil.example/page", "content-type": "application/json" },
      body: JSON.stringify({ name: "x" }),
    });
    expect(noOrigin.status).toBe(403);
    const created = await t.app.request("/api/tokens", {
      method: "POST",
      headers: { ...headers, "content-type": "application/json" },
      body: JSON.stringify({ name: "cli" }),
    });
    const { secret } = (await created.json()) as { secret: string };
    const bearer = await t.app.request("/api/auth/logout", {
      method: "POST",
      headers: { authorization: `Bearer ${secret}`, origin: "https://evil.example" },
    });
    expect(bearer.status).toBe(200);
    expect(await t.db.selectFrom("api_tokens").select("id").execute()).toHaveLength(1);
  });
});

/** Signs a user in to `t` and returns a call that creates one API token as that user. */
async function tokenCreator(t: Awaited<ReturnType<typeof createTestApp>>) {
  const { headers } = await t.loginAs();
  return () =>
    t.app.request("/api/tokens", {
      method: "POST",
      headers: { ...headers, "content-type": "application/json" },
      body: JSON.stringify({ name: "t" }),
    });
}

describe("rate limits on each abusable route", () => {
  it("answers 429 with retry-after per credential on generate, import, payments and tokens", async () => {
    const t = await createTestApp({
      RATE_LIMITS_ENABLED: "true",
      RATE_LIMITS: "generate=2/60,import=2/60,payments=2/60,tokens=2/60",
    });
    const { headers } = await t.loginAs();
    const json = { ...headers, "content-type": "application/json" };
    const routes = [
      ["/api/ai/generate-solution", { issueId: "x" }],
      ["/api/contributions/parse-url", { url: "https://github.com/o/r/issues/1" }],
      ["/api/payments/create-order", { planId: "PRO" }],
      ["/api/tokens", { name: "t" }],
    ] as const;
    for (const [path, body] of routes) {
      const statuses: number[] = [];
      let last: Response | undefined;
      for (let i = 0; i < 4; i++) {
        last = await t.app.request(path, { method: "POST", headers: json, body: JSON.stringify(body) });
        statuses.push(last.status);
      }
      expect(
        statuses.slice(0, 2).every((s) => s !== 429),
        `${path} ${statuses}`,
      ).toBe(true);
      expect(statuses.slice(2), path).toEqual([429, 429]);
      expect(Number(last?.headers.get("retry-after")), path).toBeGreaterThan(0);
      expect(((await last?.json()) as { error: { code: string } }).error.code).toBe("rate_limited");
    }
    // The tokens limit held: only the two requests under it created tokens.
    expect(await t.db.selectFrom("api_tokens").select("id").execute()).toHaveLength(2);
  });

  it("never counts a refused request, not even for a moment (no write to the counters at all)", async () => {
    const t = await createTestApp({ RATE_LIMITS_ENABLED: "true", RATE_LIMITS: "tokens=1/60" });
    const create = await tokenCreator(t);
    expect((await create()).status).toBe(201);
    // Every command Redis runs, as it runs it: a counter raised and then lowered again by a
    // second round trip would show, and meanwhile refuse a request sharing the counter.
    const monitor = await t.redis.monitor();
    const writes: string[] = [];
    monitor.on("monitor", (_time: string, args: string[]) => {
      const [command = "", counter = ""] = args;
      if (counter.startsWith(`${t.prefix}:rl:`) && /^(incr|decr|incrby|decrby|set)$/i.test(command))
        writes.push(`${command} ${counter}`);
    });
    const refused = await create();
    expect(refused.status).toBe(429);
    // Redis runs commands in order: once a marker sent after the answer shows, so has every
    // command the refused request ran.
    let marked = false;
    monitor.on("monitor", (_time: string, args: string[]) => {
      if (args[0]?.toLowerCase() === "echo" && args[1] === `${t.prefix}:end`) marked = true;
    });
    await t.redis.echo(`${t.prefix}:end`);
    await eventually(() => marked, { what: "the marker in the monitor" });
    monitor.disconnect();
    expect(writes).toEqual([]);
  });

  afterEach(() => vi.useRealTimers());

  it("does not let twice the limit through across a window's boundary, and says when there is room again", async () => {
    const t = await createTestApp({ RATE_LIMITS_ENABLED: "true", RATE_LIMITS: "tokens=2/60" });
    const create = await tokenCreator(t);
    // Only the clock is fake (Redis and HTTP run for real); minutes of its own, an hour from now (the session still valid).
    const boundary = (Math.floor(Date.now() / 60_000) + 60) * 60_000;
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(boundary - 100); // the window's last tenth of a second
    expect([(await create()).status, (await create()).status]).toEqual([201, 201]);
    vi.setSystemTime(boundary + 100); // the next window's first
    const refused = await create();
    expect(refused.status).toBe(429);
    // Room for one more once the last window's two requests weigh one: half-way through this one.
    const retryAfter = Number(refused.headers.get("retry-after"));
    expect(retryAfter).toBe(30);
    vi.setSystemTime(boundary + 100 + (retryAfter - 1) * 1000);
    expect((await create()).status).toBe(429); // not counted: it does not push the wait back
    vi.setSystemTime(boundary + 100 + retryAfter * 1000);
    expect((await create()).status).toBe(201);
    expect(await t.db.selectFrom("api_tokens").select("id").execute()).toHaveLength(3);
  });
});
