import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startRazorpaySandbox, type RazorpaySandbox } from "@fixloop/testkit/sandbox";
import { createTestStack, type TestStack } from "../../test/stack";
import { insertIssue } from "@fixloop/testkit";
import { seedSolution } from "@fixloop/testkit";
import { body, changedTables, paramValue, query, snapshot, type FuzzBody } from "../../test/fuzz.testkit";

/**
 * Property-based bad input over every /api route the app declares: bodies, queries and params
 * of wrong types, missing and extra fields, huge and odd strings, malformed JSON and wrong
 * content types. No answer may be a 5xx; every 4xx is `{error:{code,message}}`; a rejected
 * request leaves every table as it was.
 */
const RUNS_PER_ROUTE = 60;
// Ending the session would turn every later case into a plain 401.
const SKIP = new Set(["POST /api/auth/logout"]);

let razorpay: RazorpaySandbox;
let stack: TestStack;
let headers: Record<string, string>;
let realIds: string[] = [];

beforeAll(async () => {
  razorpay = await startRazorpaySandbox();
  stack = await createTestStack({ env: { ...razorpay.env, JOB_WAIT_SECONDS: "0" }, workers: false, logLevel: "warn" });
  const me = await stack.signIn("octocat", { scopes: ["public_repo"] });
  headers = me.headers;
  const issue = await insertIssue(stack.db, me.user._id, { repo: "octocat/todo-api", number: 3 });
  const { solutionId } = await seedSolution(stack.db, {
    userId: me.user._id,
    repoFullName: "octocat/todo-api",
    issueNumber: 4,
    files: [{ filename: "src/a.ts", action: "modify", originalContent: "a\n", content: "b\n" }],
  });
  realIds = [issue.id, solutionId, "octocat", "todo-api"];
}, 120_000);
afterAll(async () => {
  await razorpay?.stop();
});

const enc = (s: string) => {
  try {
    return encodeURIComponent(s);
  } catch {
    return "%ED%A0%80"; // a lone surrogate, sent as the invalid UTF-8 a client would produce
  }
};

interface Case {
  params: Record<string, string>;
  query: Record<string, string>;
  body: FuzzBody | null;
  auth: "session" | "none" | "foreign-origin";
}

describe("bad input on every endpoint", () => {
  it("answers 4xx {error:{code,message}}, never 5xx, and changes nothing when it rejects", async () => {
    const routes = [
      ...new Map(
        stack.app.routes
          .filter(
            (r) =>
              r.path.startsWith("/api/") &&
              !r.path.includes("*") &&
              ["GET", "POST", "PUT", "PATCH", "DELETE"].includes(r.method),
          )
          .map((r) => [`${r.method} ${r.path}`, r] as const),
      ).values(),
    ].filter((r) => !SKIP.has(`${r.method} ${r.path}`));
    expect(routes.length).toBeGreaterThan(25);

    let cases = 0;
    let fiveXx = 0;
    const failures: string[] = [];
    const statuses: Record<number, number> = {};
    for (const route of routes) {
      const names = [...route.path.matchAll(/:([A-Za-z_]+)/g)].map((m) => m[1] as string);
      const arb = fc.record<Case>({
        params: fc.record(Object.fromEntries(names.map((n) => [n, paramValue(realIds)]))),
        query,
        body,
        auth: fc.constantFrom("session", "session", "session", "session", "none", "foreign-origin"),
      });
      await fc.assert(
        fc.asyncProperty(arb, async (c) => {
          cases++;
          const path = route.path.replace(/:([A-Za-z_]+)(\{[^}]*\})?/g, (_, n: string) => enc(c.params[n] ?? "x"));
          const qs = Object.entries(c.query)
            .map(([k, v]) => `${enc(k)}=${enc(v)}`)
            .join("&");
          const h: Record<string, string> = {};
          if (c.auth !== "none") h.cookie = headers.cookie ?? "";
          h.origin = c.auth === "foreign-origin" ? "https://evil.example" : (headers.origin ?? "");
          const hasBody = route.method !== "GET" && c.body !== null;
          if (hasBody && c.body?.contentType) h["content-type"] = c.body.contentType;
          const writes = route.method !== "GET";
          const before = writes ? await snapshot(stack.db) : null;
          const res = await stack.app.request(`${path}${qs ? `?${qs}` : ""}`, {
            method: route.method,
            headers: h,
            body: hasBody ? c.body?.text : undefined,
          });
          statuses[res.status] = (statuses[res.status] ?? 0) + 1;
          const what = `${route.method} ${route.path} ${JSON.stringify(c).slice(0, 300)} → ${res.status}`;
          if (res.headers.get("content-type")?.includes("text/event-stream")) {
            await res.body?.cancel();
            return;
          }
          const text = await res.text();
          if (res.status >= 500) {
            fiveXx++;
            failures.push(`${what} ${text.slice(0, 200)}`);
            return;
          }
          if (res.status >= 400) {
            let parsed: { error?: { code?: unknown; message?: unknown } } = {};
            try {
              parsed = JSON.parse(text);
            } catch {
              failures.push(`${what} not JSON: ${text.slice(0, 100)}`);
            }
            if (typeof parsed.error?.code !== "string" || typeof parsed.error?.message !== "string")
              failures.push(`${what} bad error shape ${text.slice(0, 100)}`);
            if (before) {
              const changed = changedTables(before, await snapshot(stack.db));
              if (changed.length) failures.push(`${what} changed ${changed.join(", ")}`);
            }
          }
        }),
        { numRuns: RUNS_PER_ROUTE, endOnFailure: true },
      );
    }
    console.log(
      `fuzz figures: ${JSON.stringify({ routes: routes.length, cases, fiveXx, failures: failures.length, statuses })}`,
    );
    expect(failures.slice(0, 20)).toEqual([]);
    expect(fiveXx).toBe(0);
  }, 240_000);
});
