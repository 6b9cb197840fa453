import { describe, expect, it } from "vitest";
import { createTestStack } from "../../test/stack";

const stack = await createTestStack({ workers: ["fork", "sync"] });
const { app, db, redis, prefix } = stack;
const json = async <T>(res: Response) => (await res.json()) as T;
const post = (path: string, headers: Record<string, string>, body: unknown) =>
  app.request(path, {
    method: "POST",
    headers: { ...headers, "content-type": "application/json" },
    body: JSON.stringify(body),
  });

const octocat = await stack.signIn("octocat", { scopes: ["public_repo"] });
const hubot = await stack.signIn("hubot", { scopes: ["public_repo"] });

async function importOne() {
  const repos = (await (await fetch(`${stack.github.url}/users/hubot/repos`)).json()) as Array<{
    name: string;
    private: boolean;
  }>;
  const repo = repos.find((r) => !r.private)?.name ?? "";
  const [issueNumber] = stack.github.control.addIssues("hubot", repo, [{ title: "Owned by octocat's import" }]);
  const res = await post("/api/contributions/import-issue", octocat.headers, { owner: "hubot", repo, issueNumber });
  expect(res.status).toBe(200);
  return json<{ issue: { _id: string } }>(res);
}

describe("ownership", () => {
  it("another user's issue answers 404 and never appears in their list", async () => {
    const { issue } = await importOne();
    expect((await app.request(`/api/issues/${issue._id}`, { headers: octocat.headers })).status).toBe(200);
    const theirs = await app.request(`/api/issues/${issue._id}`, { headers: hubot.headers });
    expect(theirs.status).toBe(404);
    expect((await json<{ error: { code: string } }>(theirs)).error.code).toBe("issue.not_found");
    const list = await json<{ issues: Array<{ _id: string }> }>(
      await app.request("/api/issues", { headers: hubot.headers }),
    );
    expect(list.issues.map((i) => i._id)).not.toContain(issue._id);
    expect((await app.request("/api/issues/not-a-uuid", { headers: hubot.headers })).status).toBe(404);
  });

  it("another user's API token cannot be revoked (404), and each list holds only its owner's tokens", async () => {
    const created = await json<{ token: { _id: string }; secret: string }>(
      await post("/api/tokens", octocat.headers, { name: "ci" }),
    );
    expect(created.secret).toMatch(/^flp_/);
    expect(
      (await app.request(`/api/tokens/${created.token._id}`, { method: "DELETE", headers: hubot.headers })).status,
    ).toBe(404);
    const theirs = await json<{ tokens: Array<{ _id: string }> }>(
      await app.request("/api/tokens", { headers: hubot.headers }),
    );
    expect(theirs.tokens.map((t) => t._id)).not.toContain(created.token._id);
    const mine = await json<{ tokens: Array<Record<string, unknown>> }>(
      await app.request("/api/tokens", { headers: octocat.headers }),
    );
    expect(JSON.stringify(mine)).not.toContain(created.secret);
  });
});

describe("personal API tokens", () => {
  it("are shown once, stored hashed, work as Bearer, and stop working when revoked", async () => {
    const res = await post("/api/tokens", octocat.headers, { name: "script" });
    expect(res.status).toBe(201);
    const { token, secret } = await json<{ token: { _id: string; prefix: string }; secret: string }>(res);
    expect(secret.startsWith(token.prefix)).toBe(true);
    const stored = await db
      .selectFrom("api_tokens")
      .select("token_hash")
      .where("id", "=", token._id)
      .executeTakeFirstOrThrow();
    expect(stored.token_hash).not.toContain(secret);
    const bearer = { authorization: `Bearer ${secret}` };
    const me = await json<{ user: { username: string } }>(await app.request("/api/auth/me", { headers: bearer }));
    expect(me.user.username).toBe("octocat");
    expect((await app.request(`/api/tokens/${token._id}`, { method: "DELETE", headers: octocat.headers })).status).toBe(
      200,
    );
    expect((await app.request("/api/auth/me", { headers: bearer })).status).toBe(401);
    expect((await post("/api/tokens", octocat.headers, { name: "  " })).status).toBe(400);
  });

  it("cannot mint, list or revoke tokens, nor reach the operations page: those need a browser session", async () => {
    const { token, secret } = await json<{ token: { _id: string }; secret: string }>(
      await post("/api/tokens", octocat.headers, { name: "leaked" }),
    );
    const bearer = { authorization: `Bearer ${secret}` };
    const rows = () => db.selectFrom("api_tokens").select(["id", "revoked_at"]).orderBy("id").execute();
    const before = await rows();
    const refused = async (res: Response) => {
      expect(res.status, `${res.url}`).toBe(403);
      expect(await res.json()).toEqual({
        error: { code: "auth.session_required", message: expect.stringMatching(/sign in on the web app/) },
      });
    };
    await refused(await post("/api/tokens", bearer, { name: "minted by a token" }));
    await refused(await post("/api/tokens", bearer, { name: "" }));
    await refused(await app.request("/api/tokens", { headers: bearer }));
    await refused(await app.request(`/api/tokens/${token._id}`, { method: "DELETE", headers: bearer }));
    await refused(await app.request("/api/ops", { headers: bearer }));
    await refused(await post("/api/ops/queues/sync/pause", bearer, {}));
    await refused(await app.request("/admin/queues", { headers: bearer }));
    expect(await rows()).toEqual(before);
    // What a token is for still works: the API as its owner.
    const me = await stack.client(bearer).auth.me.$get();
    expect((await me.json()).user.username).toBe("octocat");
    expect((await app.request("/api/issues", { headers: bearer })).status).toBe(200);
    // And the session still manages the same tokens.
    expect((await app.request("/api/tokens", { headers: octocat.headers })).status).toBe(200);
    expect((await app.request(`/api/tokens/${token._id}`, { method: "DELETE", headers: octocat.headers })).status).toBe(
      200,
    );
  });
});

describe("GitHub tokens never leak", () => {
  it("appear in no log line, no job payload in Redis, no URL and no stored column in clear", async () => {
    const repos = await json<{ repositories: Array<{ fullName: string; isPrivate: boolean }> }>(
      await app.request("/api/github/repositories", { headers: octocat.headers }),
    );
    const own = repos.repositories.find((r) => r.fullName.startsWith("octocat/") && !r.isPrivate);
    expect(
      (await app.request(`/api/github/repositories/${own?.fullName}/issues`, { headers: octocat.headers })).status,
    ).toBe(200);
    await importOne();

    const tokens = [...new Set(stack.github.control.requestLog.map((r) => r.token).filter((t): t is string => !!t))];
    expect(tokens.length).toBeGreaterThanOrEqual(2);

    const logs = stack.logs.join("\n");
    expect(stack.logs.length).toBeGreaterThan(0);
    for (const t of tokens) expect(logs).not.toContain(t);

    const keys = await redis.keys(`${prefix}:*`);
    const jobKeys = [];
    for (const key of keys) if ((await redis.type(key)) === "hash") jobKeys.push(key);
    const payloads = await Promise.all(jobKeys.map((k) => redis.hget(k, "data")));
    const jobData = payloads.filter(Boolean).join("\n");
    expect(jobData).toContain(`"userId"`);
    for (const t of tokens) expect(jobData).not.toContain(t);

    for (const entry of stack.github.control.requestLog) for (const t of tokens) expect(entry.path).not.toContain(t);

    const accounts = await db.selectFrom("github_accounts").select(["access_token_enc", "login"]).execute();
    for (const a of accounts) for (const t of tokens) expect(a.access_token_enc).not.toContain(t);
  });

  it("the redirects of sign-in carry only the one-time login code", async () => {
    const start = await app.request("/api/auth/github");
    const to = new URL(start.headers.get("location") ?? "");
    expect([...to.searchParams.keys()].sort()).toEqual(["allow_signup", "client_id", "redirect_uri", "scope", "state"]);
    expect(to.toString()).not.toContain(stack.github.clientSecret);
  });
});
