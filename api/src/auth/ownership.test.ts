import { describe, expect, it } from "vitest";
import { createTestStack } from "../../test/stack";
import { errorOf } from "../../test/testing";

const stack = await createTestStack({ workers: ["fork", "sync"] });
const { app, db, redis, prefix } = stack;

const octocat = await stack.signIn("octocat", { scopes: ["public_repo"] });
const hubot = await stack.signIn("hubot", { scopes: ["public_repo"] });
const asOctocat = stack.client(octocat.headers);
const asHubot = stack.client(hubot.headers);

async function importOne() {
  const repos = (await (await fetch(`${stack.github.url}/users/hubot/repos`)).json()) as Array<{
    name: string;
    private: boolean;
  }>;
  const repo = repos.find((r) => !r.private)?.name ?? "";
  const [issueNumber] = stack.github.control.addIssues("hubot", repo, [{ title: "Owned by octocat's import" }]);
  if (issueNumber === undefined) throw new Error("the stand-in added no issue");
  const res = await asOctocat.contributions["import-issue"].$post({ json: { owner: "hubot", repo, issueNumber } });
  expect(res.status).toBe(200);
  const body = await res.json();
  if (!("issue" in body)) throw new Error(`the import was queued: ${JSON.stringify(body)}`);
  return body;
}

describe("ownership", () => {
  it("another user's issue answers 404 and never appears in their list", async () => {
    const { issue } = await importOne();
    expect((await asOctocat.issues[":id"].$get({ param: { id: issue._id } })).status).toBe(200);
    const theirs = await asHubot.issues[":id"].$get({ param: { id: issue._id } });
    expect(theirs.status).toBe(404);
    expect((await errorOf(theirs)).code).toBe("issue.not_found");
    const list = await (await asHubot.issues.$get({ query: {} })).json();
    expect(list.issues.map((i) => i._id)).not.toContain(issue._id);
    expect((await asHubot.issues[":id"].$get({ param: { id: "not-a-uuid" } })).status).toBe(404);
  });

  it("another user's API token cannot be revoked (404), and each list holds only its owner's tokens", async () => {
    const created = await (await asOctocat.tokens.$post({ json: { name: "ci" } })).json();
    expect(created.secret).toMatch(/^flp_/);
    expect((await asHubot.tokens[":id"].$delete({ param: { id: created.token._id } })).status).toBe(404);
    const theirs = await (await asHubot.tokens.$get()).json();
    expect(theirs.tokens.map((t) => t._id)).not.toContain(created.token._id);
    const mine = await (await asOctocat.tokens.$get()).json();
    expect(JSON.stringify(mine)).not.toContain(created.secret);
  });
});

describe("personal API tokens", () => {
  it("are shown once, stored hashed, work as Bearer, and stop working when revoked", async () => {
    const res = await asOctocat.tokens.$post({ json: { name: "script" } });
    expect(res.status).toBe(201);
    const { token, secret } = await res.json();
    expect(secret.startsWith(token.prefix)).toBe(true);
    const stored = await db
      .selectFrom("api_tokens")
      .select("token_hash")
      .where("id", "=", token._id)
      .executeTakeFirstOrThrow();
    expect(stored.token_hash).not.toContain(secret);
    const asToken = stack.client({ authorization: `Bearer ${secret}` });
    const me = await (await asToken.auth.me.$get()).json();
    expect(me.user.username).toBe("octocat");
    expect((await asOctocat.tokens[":id"].$delete({ param: { id: token._id } })).status).toBe(200);
    expect((await asToken.auth.me.$get()).status).toBe(401);
    expect((await asOctocat.tokens.$post({ json: { name: "  " } })).status).toBe(400);
  });

  it("cannot mint, list or revoke tokens, nor reach the operations page: those need a browser session", async () => {
    const { token, secret } = await (await asOctocat.tokens.$post({ json: { name: "leaked" } })).json();
    const bearer = { authorization: `Bearer ${secret}` };
    const asToken = stack.client(bearer);
    const rows = () => db.selectFrom("api_tokens").select(["id", "revoked_at"]).orderBy("id").execute();
    const before = await rows();
    const refused = async (res: { status: number; url: string; json(): Promise<unknown> }) => {
      expect(res.status, `${res.url}`).toBe(403);
      expect(await res.json()).toEqual({
        error: { code: "auth.session_required", message: expect.stringMatching(/sign in on the web app/) },
      });
    };
    await refused(await asToken.tokens.$post({ json: { name: "minted by a token" } }));
    await refused(await asToken.tokens.$post({ json: { name: "" } }));
    await refused(await asToken.tokens.$get());
    await refused(await asToken.tokens[":id"].$delete({ param: { id: token._id } }));
    await refused(await asToken.ops.$get());
    await refused(await asToken.ops.queues[":name"].pause.$post({ param: { name: "sync" } }));
    // The queue board is served beside the API, not in its typed routes.
    await refused(await app.request("/admin/queues", { headers: bearer }));
    expect(await rows()).toEqual(before);
    // What a token is for still works: the API as its owner.
    const me = await asToken.auth.me.$get();
    expect((await me.json()).user.username).toBe("octocat");
    expect((await asToken.issues.$get({ query: {} })).status).toBe(200);
    // And the session still manages the same tokens.
    expect((await asOctocat.tokens.$get()).status).toBe(200);
    expect((await asOctocat.tokens[":id"].$delete({ param: { id: token._id } })).status).toBe(200);
  });
});

describe("GitHub tokens never leak", () => {
  it("appear in no log line, no job payload in Redis, no URL and no stored column in clear", async () => {
    const repos = await (await asOctocat.github.repositories.$get({ query: {} })).json();
    const own = repos.repositories.find((r) => r.fullName.startsWith("octocat/") && !r.isPrivate);
    const [owner = "", repo = ""] = own?.fullName.split("/") ?? [];
    expect(
      (await asOctocat.github.repositories[":owner"][":repo"].issues.$get({ param: { owner, repo } })).status,
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
    const start = await stack.client().auth.github.$get({ query: {} });
    const to = new URL(start.headers.get("location") ?? "");
    expect([...to.searchParams.keys()].sort()).toEqual(["allow_signup", "client_id", "redirect_uri", "scope", "state"]);
    expect(to.toString()).not.toContain(stack.github.clientSecret);
  });
});
