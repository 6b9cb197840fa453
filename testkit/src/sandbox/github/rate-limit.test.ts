import { throttling } from "@octokit/plugin-throttling";
import type { RequestError } from "@octokit/request-error";
import { Octokit } from "@octokit/rest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestSandbox, type TestSandbox } from "../../../test/github-sandbox";

let t: TestSandbox;
beforeAll(async () => {
  t = await startTestSandbox();
});
afterAll(() => t.stop());

const repo = { owner: "octocat", repo: "todo-api" };
const ThrottledOctokit = Octokit.plugin(throttling);

describe("rate-limit simulation", () => {
  it("answers a primary rate limit with 403, x-ratelimit-remaining 0 and a reset time", async () => {
    t.sandbox.control.failNext({ path: /\/issues$/, status: 403, kind: "primary", retryAfter: 120 });
    const gh = t.octokit("octocat", ["public_repo"]);
    const error = (await gh.rest.issues.listForRepo(repo).catch((e: unknown) => e)) as RequestError;
    expect(error.status).toBe(403);
    expect(error.message).toMatch(/^API rate limit exceeded for user ID/);
    const headers = error.response?.headers ?? {};
    expect(headers["x-ratelimit-remaining"]).toBe("0");
    const reset = Number(headers["x-ratelimit-reset"]);
    expect(reset - Date.now() / 1000).toBeGreaterThan(100);
    expect((await gh.rest.issues.listForRepo(repo)).status).toBe(200);
  });

  it("answers a secondary rate limit with retry-after and GitHub's message, which the throttling plugin recognises and retries", async () => {
    t.sandbox.control.failNext({ path: /\/pulls$/, status: 403, kind: "secondary", retryAfter: 1, times: 2 });
    const seen: number[] = [];
    const gh = new ThrottledOctokit({
      auth: t.sandbox.control.issueToken("octocat", ["public_repo"]),
      baseUrl: t.sandbox.url,
      throttle: {
        onRateLimit: () => false,
        onSecondaryRateLimit: (retryAfter: number, _options: unknown, _octokit: unknown, retryCount: number) => {
          seen.push(retryAfter);
          return retryCount < 3;
        },
        retryAfterBaseValue: 10,
      },
    });
    t.sandbox.control.clearRequestLog();
    const { status } = await gh.rest.pulls.list(repo);
    expect(status).toBe(200);
    expect(seen).toEqual([1, 1]);
    expect(t.sandbox.control.requestLog.map((r) => r.status)).toEqual([403, 403, 200]);
  });

  it("can answer 429 and only for matching paths", async () => {
    t.sandbox.control.failNext({ path: /\/git\/ref\//, status: 429, kind: "secondary", retryAfter: 7 });
    const gh = t.octokit("octocat", ["public_repo"]);
    expect((await gh.rest.repos.get(repo)).status).toBe(200);
    const error = (await gh.rest.git.getRef({ ...repo, ref: "heads/main" }).catch((e: unknown) => e)) as RequestError;
    expect(error.status).toBe(429);
    expect(error.response?.headers["retry-after"]).toBe("7");
    expect(error.message).toContain("secondary rate limit");
  });

  it("counts requests per token and logs the token used", async () => {
    const token = t.sandbox.control.issueToken("hubot", []);
    const call = () =>
      fetch(`${t.sandbox.url}/repos/octocat/todo-api`, { headers: { authorization: `token ${token}` } });
    const first = await call();
    const second = await call();
    expect(Number(first.headers.get("x-ratelimit-used")) + 1).toBe(Number(second.headers.get("x-ratelimit-used")));
    expect(Number(second.headers.get("x-ratelimit-remaining"))).toBe(
      5000 - Number(second.headers.get("x-ratelimit-used")),
    );
    expect(second.headers.get("x-ratelimit-resource")).toBe("core");
    expect(t.sandbox.control.requestLog.filter((r) => r.token === token)).toHaveLength(2);
  });
});
