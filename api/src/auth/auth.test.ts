import { describe, expect, it } from "vitest";
import { createTestStack } from "../../test/stack";
import { errorOf } from "../../test/testing";

const stack = await createTestStack({ workers: false });
const { app, db } = stack;

const cookiesOf = (res: Response) =>
  res.headers
    .getSetCookie()
    .map((c) => c.split(";")[0])
    .join("; ");
const counts = async () => ({
  users: (
    await db
      .selectFrom("users")
      .select((e) => e.fn.countAll<string>().as("n"))
      .executeTakeFirstOrThrow()
  ).n,
  codes: (
    await db
      .selectFrom("login_codes")
      .select((e) => e.fn.countAll<string>().as("n"))
      .executeTakeFirstOrThrow()
  ).n,
  accounts: (
    await db
      .selectFrom("github_accounts")
      .select((e) => e.fn.countAll<string>().as("n"))
      .executeTakeFirstOrThrow()
  ).n,
});

/** Starts sign-in and gets GitHub's answer (code + state) without calling our callback yet. */
async function authorizeAt(login: string) {
  const start = await app.request("/api/auth/github");
  const binding = cookiesOf(start);
  const form = new URLSearchParams(new URL(start.headers.get("location") ?? "").searchParams);
  form.set("login", login);
  const granted = await fetch(new URL("/login/oauth/authorize", stack.github.url), {
    method: "POST",
    body: form,
    redirect: "manual",
  });
  const back = new URL(granted.headers.get("location") ?? "");
  return {
    binding,
    callback: back.pathname + back.search,
    state: back.searchParams.get("state") ?? "",
    code: back.searchParams.get("code") ?? "",
  };
}

describe("GitHub sign-in", () => {
  it("starts OAuth with a browser-bound state and only the sign-in scopes", async () => {
    const res = await app.request("/api/auth/github");
    expect(res.status).toBe(302);
    const to = new URL(res.headers.get("location") ?? "");
    expect(to.origin).toBe(stack.github.url);
    expect(to.pathname).toBe("/login/oauth/authorize");
    expect(to.searchParams.get("scope")).toBe("read:user user:email");
    expect(to.searchParams.get("redirect_uri")).toBe(`${stack.publicUrl}/api/auth/github/callback`);
    expect(to.searchParams.get("state")?.length).toBeGreaterThan(30);
    const cookie = res.headers.getSetCookie().join("\n");
    expect(cookie).toMatch(/fixloop_oauth=.+HttpOnly/i);
    expect(cookie).toMatch(/SameSite=Lax/i);
    const row = await db.selectFrom("oauth_states").selectAll().orderBy("created_at", "desc").executeTakeFirstOrThrow();
    expect(row.state_hash).not.toContain(to.searchParams.get("state"));
  });

  it("signs in as octocat through the whole flow and stores the token encrypted", async () => {
    const { headers, user } = await stack.signIn("octocat");
    expect(user.username).toBe("octocat");
    const me = await stack.client(headers).auth.me.$get();
    expect(me.status).toBe(200);
    const body = await me.json();
    expect(body.user).toMatchObject({ username: "octocat", _id: user._id });
    expect(typeof body.user.avatarUrl).toBe("string");
    expect(typeof body.user.createdAt).toBe("string");
    const account = await db
      .selectFrom("github_accounts")
      .selectAll()
      .where("user_id", "=", user._id)
      .executeTakeFirstOrThrow();
    expect(account.scopes).toEqual(["read:user", "user:email"]);
    expect(account.access_token_enc).not.toMatch(/gho_/);
    expect(stack.ctx.cipher.decrypt(account.key_id, account.access_token_enc, user._id)).toMatch(/^gho_/);
  });

  it("sets the session cookie HttpOnly and SameSite=Lax, and the login code cannot be used twice", async () => {
    const a = await authorizeAt("hubot");
    const cb = await app.request(a.callback, { headers: { cookie: a.binding } });
    expect(cb.status).toBe(302);
    const loc = new URL(cb.headers.get("location") ?? "");
    expect(loc.pathname).toBe("/auth/callback");
    const token = loc.searchParams.get("token") ?? "";
    const login = cookiesOf(cb);
    const exchange = () =>
      app.request("/api/auth/session", {
        method: "POST",
        headers: { "content-type": "application/json", origin: stack.publicUrl, cookie: login },
        body: JSON.stringify({ token }),
      });
    const first = await exchange();
    expect(first.status).toBe(200);
    const set = first.headers.getSetCookie().find((c) => c.startsWith("fixloop_session=")) ?? "";
    expect(set).toMatch(/HttpOnly/i);
    expect(set).toMatch(/SameSite=Lax/i);
    expect(set).not.toMatch(/Secure/i);
    const second = await exchange();
    expect(second.status).toBe(401);
    expect((await errorOf(second)).code).toBe("auth.invalid_code");
  });

  it("rejects an expired login code with 401", async () => {
    const a = await authorizeAt("hubot");
    const cb = await app.request(a.callback, { headers: { cookie: a.binding } });
    const token = new URL(cb.headers.get("location") ?? "").searchParams.get("token") ?? "";
    await db
      .updateTable("login_codes")
      .set({ expires_at: new Date(Date.now() - 1000) })
      .where("used_at", "is", null)
      .execute();
    const res = await app.request("/api/auth/session", {
      method: "POST",
      headers: { "content-type": "application/json", origin: stack.publicUrl, cookie: cookiesOf(cb) },
      body: JSON.stringify({ token }),
    });
    expect(res.status).toBe(401);
  });

  it("exchanges a login code only in the browser that started the sign-in, and only from our origin", async () => {
    const a = await authorizeAt("hubot");
    const cb = await app.request(a.callback, { headers: { cookie: a.binding } });
    const token = new URL(cb.headers.get("location") ?? "").searchParams.get("token") ?? "";
    const login = cookiesOf(cb);
    expect(cb.headers.getSetCookie().join("\n")).toMatch(/fixloop_login=.+HttpOnly/i);
    const other = await authorizeAt("octocat");
    const otherCb = await app.request(other.callback, { headers: { cookie: other.binding } });
    const exchange = (headers: Record<string, string>) =>
      app.request("/api/auth/session", {
        method: "POST",
        headers: { "content-type": "application/json", ...headers },
        body: JSON.stringify({ token }),
      });
    const sessions = async () => (await db.selectFrom("sessions").select("id").execute()).length;
    const before = await sessions();

    const noCookie = await exchange({ origin: stack.publicUrl });
    expect(noCookie.status).toBe(401);
    expect((await errorOf(noCookie)).code).toBe("auth.invalid_code");
    expect((await exchange({ origin: stack.publicUrl, cookie: cookiesOf(otherCb) })).status).toBe(401);
    for (const origin of ["https://evil.example", "null"]) {
      const foreign = await exchange({ origin, cookie: login });
      expect(foreign.status).toBe(403);
      expect((await errorOf(foreign)).code).toBe("request.cross_origin");
    }
    expect((await exchange({ cookie: login })).status).toBe(403);
    expect(await sessions()).toBe(before);

    // The right browser still signs in with it.
    expect((await exchange({ origin: stack.publicUrl, cookie: login })).status).toBe(200);
  });

  it("rejects a callback without state, or without the browser cookie, and stores nothing", async () => {
    const a = await authorizeAt("octocat");
    const before = await counts();
    const noState = await app.request(a.callback.replace(/state=[^&]+/, ""), { headers: { cookie: a.binding } });
    expect(noState.status).toBe(302);
    expect(noState.headers.get("location")).toBe(`${stack.publicUrl}/auth?error=oauth.state_missing`);
    const noCookie = await app.request(a.callback, { headers: { accept: "application/json" } });
    expect(noCookie.status).toBe(400);
    expect((await errorOf(noCookie)).code).toBe("oauth.state_missing");
    expect(await counts()).toEqual(before);
  });

  it("rejects a state bound to another browser and stores nothing", async () => {
    const mine = await authorizeAt("octocat");
    const theirs = await authorizeAt("octocat");
    const before = await counts();
    const res = await app.request(mine.callback, { headers: { cookie: theirs.binding } });
    expect(res.headers.get("location")).toBe(`${stack.publicUrl}/auth?error=oauth.state_mismatch`);
    expect(await counts()).toEqual(before);
  });

  it("rejects a reused state and an expired state, storing nothing", async () => {
    const a = await authorizeAt("hubot");
    const ok = await app.request(a.callback, { headers: { cookie: a.binding } });
    expect(ok.headers.get("location")).toContain("/auth/callback?token=");
    const before = await counts();
    const reused = await app.request(a.callback, { headers: { cookie: a.binding } });
    expect(reused.headers.get("location")).toBe(`${stack.publicUrl}/auth?error=oauth.state_reused`);

    const b = await authorizeAt("hubot");
    await db
      .updateTable("oauth_states")
      .set({ expires_at: new Date(Date.now() - 1000) })
      .where("used_at", "is", null)
      .execute();
    const expired = await app.request(b.callback, { headers: { cookie: b.binding } });
    expect(expired.headers.get("location")).toBe(`${stack.publicUrl}/auth?error=oauth.state_expired`);
    expect(await counts()).toEqual(before);
  });

  it("logout revokes the session server-side", async () => {
    const { headers } = await stack.signIn("octocat");
    const out = await app.request("/api/auth/logout", { method: "POST", headers });
    expect(out.status).toBe(200);
    expect((await app.request("/api/auth/me", { headers })).status).toBe(401);
    const revoked = await db.selectFrom("sessions").select("revoked_at").where("revoked_at", "is not", null).execute();
    expect(revoked.length).toBeGreaterThan(0);
  });

  it("answers who is signed in at /auth/session, null (200, not 401) when no one is, and refuses a bad token", async () => {
    const session = (headers?: Record<string, string>) => app.request("/api/auth/session", { headers });
    const anonymous = await session();
    expect(anonymous.status).toBe(200);
    expect(await anonymous.json()).toEqual({ user: null });
    expect((await session({ cookie: "fixloop_session=forged" })).status).toBe(200);
    const { headers } = await stack.signIn("octocat");
    const signedIn = await stack.client(headers).auth.session.$get();
    expect(signedIn.status).toBe(200);
    expect((await signedIn.json()).user?.username).toBe("octocat");
    // A bearer credential is judged alone, as on every other route.
    expect((await session({ authorization: "Bearer nope" })).status).toBe(401);
    await app.request("/api/auth/logout", { method: "POST", headers });
    expect(await (await session(headers)).json()).toEqual({ user: null });
  });

  it("repository authorization adds public_repo (or repo when private is chosen), never workflow", async () => {
    const { headers, user } = await stack.signIn("octocat");
    const start = await app.request("/api/auth/github/repos?private=false", { headers });
    expect(new URL(start.headers.get("location") ?? "").searchParams.get("scope")).toBe(
      "read:user user:email public_repo",
    );
    await stack.authorizeRepos(headers, "octocat");
    let account = await db
      .selectFrom("github_accounts")
      .select("scopes")
      .where("user_id", "=", user._id)
      .executeTakeFirstOrThrow();
    expect(account.scopes).toContain("public_repo");
    await stack.authorizeRepos(headers, "octocat", { private: true });
    account = await db
      .selectFrom("github_accounts")
      .select("scopes")
      .where("user_id", "=", user._id)
      .executeTakeFirstOrThrow();
    expect(account.scopes).toContain("repo");
    expect(account.scopes).not.toContain("workflow");
  });

  it("repository authorization needs a signed-in user and the same GitHub account", async () => {
    expect((await app.request("/api/auth/github/repos")).status).toBe(401);
    const { headers } = await stack.signIn("octocat");
    const res = await stack.oauth("/api/auth/github/repos", "hubot", headers);
    expect(res.headers.get("location")).toBe(`${stack.publicUrl}/repositories?error=oauth.account_mismatch`);
  });
});
