import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestSandbox, type TestSandbox } from "../../../test/github-sandbox";

const REDIRECT = "http://localhost:5173/api/auth/github/callback";

let t: TestSandbox;
beforeAll(async () => {
  t = await startTestSandbox();
});
afterAll(() => t.stop());

function authorizeUrl(params: Record<string, string>): string {
  return `${t.sandbox.url}/login/oauth/authorize?${new URLSearchParams(params)}`;
}

/** Reads the hidden inputs of the "Authorize as <login>" form, as a browser would submit them. */
function formFor(html: string, login: string): URLSearchParams {
  const form = html.split("<form").find((f) => f.includes(`Authorize as ${login}<`));
  if (!form) throw new Error(`no form for ${login}`);
  const fields = new URLSearchParams();
  for (const m of form.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)) {
    fields.set(m[1] ?? "", (m[2] ?? "").replace(/&amp;/g, "&").replace(/&quot;/g, '"'));
  }
  return fields;
}

async function authorize(login: string, scope: string, state: string): Promise<URL> {
  const page = await fetch(authorizeUrl({ client_id: t.sandbox.clientId, redirect_uri: REDIRECT, scope, state }));
  expect(page.status).toBe(200);
  const res = await fetch(`${t.sandbox.url}/login/oauth/authorize`, {
    method: "POST",
    body: formFor(await page.text(), login),
    redirect: "manual",
  });
  expect(res.status).toBe(302);
  return new URL(res.headers.get("location") ?? "");
}

async function exchange(code: string, accept = "application/json") {
  const res = await fetch(`${t.sandbox.url}/login/oauth/access_token`, {
    method: "POST",
    headers: { accept, "content-type": "application/json" },
    body: JSON.stringify({
      client_id: t.sandbox.clientId,
      client_secret: t.sandbox.clientSecret,
      code,
      redirect_uri: REDIRECT,
    }),
  });
  expect(res.status).toBe(200);
  return res;
}

describe("OAuth web flow", () => {
  it("lists the sandbox users with an Authorize button each", async () => {
    const res = await fetch(
      authorizeUrl({ client_id: t.sandbox.clientId, redirect_uri: REDIRECT, scope: "read:user", state: "s1" }),
    );
    const html = await res.text();
    expect(res.headers.get("content-type")).toContain("text/html");
    expect(html).toContain("Authorize as octocat");
    expect(html).toContain("Authorize as hubot");
  });

  it("rejects an unknown client_id", async () => {
    const res = await fetch(authorizeUrl({ client_id: "nope", redirect_uri: REDIRECT, state: "x" }));
    expect(res.status).toBe(404);
  });

  it("redirects with code and state, then exchanges the code for a token with exactly the requested scopes", async () => {
    const back = await authorize("octocat", "read:user user:email", "state-123");
    expect(`${back.origin}${back.pathname}`).toBe(REDIRECT);
    expect(back.searchParams.get("state")).toBe("state-123");
    const code = back.searchParams.get("code") ?? "";
    expect(code).not.toBe("");

    const body = (await (await exchange(code)).json()) as Record<string, string>;
    expect(body).toMatchObject({ token_type: "bearer", scope: "read:user,user:email" });
    expect(body.access_token).toMatch(/^gho_[A-Za-z0-9]{36}$/);

    const user = await fetch(`${t.sandbox.url}/user`, { headers: { authorization: `Bearer ${body.access_token}` } });
    expect(user.status).toBe(200);
    expect(((await user.json()) as { login: string }).login).toBe("octocat");
    expect(user.headers.get("x-oauth-scopes")).toBe("read:user, user:email");
  });

  it("accepts a code only once", async () => {
    const code = (await authorize("hubot", "public_repo", "s2")).searchParams.get("code") ?? "";
    const first = (await (await exchange(code)).json()) as Record<string, string>;
    expect(first.access_token).toBeDefined();
    const again = (await (await exchange(code)).json()) as Record<string, string>;
    expect(again).toEqual({
      error: "bad_verification_code",
      error_description: "The code passed is incorrect or expired.",
      error_uri: expect.stringContaining("bad-verification-code"),
    });
  });

  it("answers form-encoded without Accept: application/json, like GitHub", async () => {
    const code = (await authorize("octocat", "repo", "s3")).searchParams.get("code") ?? "";
    const res = await exchange(code, "*/*");
    expect(res.headers.get("content-type")).toContain("application/x-www-form-urlencoded");
    const fields = new URLSearchParams(await res.text());
    expect(fields.get("scope")?.split(",")).toContain("repo");
    expect(fields.get("token_type")).toBe("bearer");
  });

  it("redirects with error=access_denied when the user cancels", async () => {
    const res = await fetch(`${t.sandbox.url}/login/oauth/authorize`, {
      method: "POST",
      body: new URLSearchParams({
        client_id: t.sandbox.clientId,
        redirect_uri: REDIRECT,
        scope: "",
        state: "s4",
        deny: "1",
      }),
      redirect: "manual",
    });
    const back = new URL(res.headers.get("location") ?? "");
    expect(back.searchParams.get("error")).toBe("access_denied");
    expect(back.searchParams.get("state")).toBe("s4");
  });

  it("gives a later, narrower authorization a token that still carries every scope granted before, as GitHub does", async () => {
    const wide = (await (
      await exchange((await authorize("hubot", "read:user public_repo", "s5")).searchParams.get("code") ?? "")
    ).json()) as Record<string, string>;
    const narrow = (await (
      await exchange((await authorize("hubot", "read:user", "s6")).searchParams.get("code") ?? "")
    ).json()) as Record<string, string>;
    expect(narrow.scope?.split(",")).toEqual(expect.arrayContaining(["read:user", "public_repo"]));
    const user = await fetch(`${t.sandbox.url}/user`, { headers: { authorization: `Bearer ${narrow.access_token}` } });
    expect(user.headers.get("x-oauth-scopes")?.split(", ")).toContain("public_repo");
    expect(wide.access_token).not.toBe(narrow.access_token);
  });

  it("forgets the grant and kills its tokens when the user revokes the app", async () => {
    const before = (await (
      await exchange((await authorize("hubot", "public_repo", "s7")).searchParams.get("code") ?? "")
    ).json()) as Record<string, string>;
    t.sandbox.control.revokeGrant("hubot");
    const dead = await fetch(`${t.sandbox.url}/user`, { headers: { authorization: `Bearer ${before.access_token}` } });
    expect(dead.status).toBe(401);
    const after = (await (
      await exchange((await authorize("hubot", "read:user", "s8")).searchParams.get("code") ?? "")
    ).json()) as Record<string, string>;
    expect(after.scope).toBe("read:user");
  });

  it("answers 401 Bad credentials for an unknown token", async () => {
    const res = await fetch(`${t.sandbox.url}/user`, { headers: { authorization: "token gho_doesnotexist" } });
    expect(res.status).toBe(401);
    expect(await res.json()).toMatchObject({ message: "Bad credentials", documentation_url: expect.any(String) });
  });
});
