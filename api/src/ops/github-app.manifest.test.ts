import { beforeAll, describe, expect, it } from "vitest";
import { GITHUB_APP_EVENTS, GITHUB_APP_PERMISSIONS } from "@fixloop/contract";
import { githubApp, storedGithubApp } from "@fixloop/runtime";
import { WebhookSender } from "@fixloop/testkit/sandbox";
import type { SignedIn } from "../../test/stack";
import { errorOf, hashSecret, testClient } from "../../test/testing";
import { webhookStack, type WebhookStack } from "../../test/webhooks.testkit";

let s: WebhookStack;
let hubot: SignedIn;
/** Every body Fixloop answered in this file, to look for secrets in. */
const answered: string[] = [];

/** Fixloop's answer to a request, noted in `answered`. */
async function noted(res: Response | Promise<Response>) {
  const answer = await res;
  answered.push(`${answer.headers.get("location") ?? ""} ${await answer.clone().text()}`);
  return answer;
}

/** `who`'s typed client; every answer is noted in `answered`. */
const api = (who: SignedIn) =>
  testClient({ request: (input, init) => noted(s.stack.app.request(input, init)) }, who.headers);

/** A raw request (for a table of routes walked by path), noted in `answered`. */
const call = (path: string, who: SignedIn, init: RequestInit = {}) =>
  noted(s.stack.app.request(path, { ...init, headers: { ...who.headers, "content-type": "application/json" } }));

const manifest = (who: SignedIn, json: { name: string; organization?: string }) =>
  api(who).ops["github-app"].manifest.$post({ json });

/** Asks Fixloop for a manifest flow: where to post, the manifest, and the state in that URL. */
async function start(name = "Fixloop Test", organization?: string) {
  const res = await manifest(s.octocat, { name, ...(organization ? { organization } : {}) });
  expect(res.status).toBe(200);
  const out = await res.json();
  return { ...out, state: new URL(out.action).searchParams.get("state") ?? "" };
}

/**
 * The operator's browser on the stand-in's "Create GitHub App" page: posts the manifest there and
 * confirms as octocat; returns the code GitHub redirects back with. The test's Fixloop listens on
 * a free port while PUBLIC_URL stays localhost:3000, so the hook URL is pointed at the listener, as
 * `tamper` may change anything else on the way (a browser can).
 */
async function createOnGithub(
  flow: { action: string; manifest: string; state: string },
  tamper = (m: object) => m,
  org = "",
) {
  const manifest = JSON.stringify(
    tamper({ ...(JSON.parse(flow.manifest) as object), hook_attributes: { url: s.hook.url, active: true } }),
  );
  const page = await fetch(flow.action, { method: "POST", body: new URLSearchParams({ manifest }) });
  expect(page.status).toBe(200);
  expect(await page.text()).toContain("Create GitHub App");
  const confirmed = await fetch(new URL("/settings/apps/new/confirm", s.stack.github.url), {
    method: "POST",
    body: new URLSearchParams({ manifest, state: flow.state, login: "octocat", org }),
    redirect: "manual",
  });
  const back = new URL(confirmed.headers.get("location") ?? "http://x/");
  expect(back.pathname).toBe("/api/ops/github-app/manifest/callback");
  expect(back.searchParams.get("state")).toBe(flow.state);
  return back.searchParams.get("code") ?? "";
}

async function callback(who: SignedIn, code: string, state: string) {
  const res = await api(who).ops["github-app"].manifest.callback.$get({ query: { code, state } });
  expect(res.status).toBe(302);
  return new URL(res.headers.get("location") ?? "http://x/");
}

const storedCount = async () => (await s.stack.db.selectFrom("github_app_configs").select("slug").execute()).length;

beforeAll(async () => {
  s = await webhookStack({ workers: ["sync"], env: { ADMIN_GITHUB_LOGINS: "octocat" } });
  hubot = await s.stack.signIn("hubot");
}, 120_000);

describe("creating Fixloop's GitHub App from /ops (the manifest flow)", () => {
  it("is for administrators only: anyone else gets 403 on every route", async () => {
    for (const [path, method] of [
      ["/api/ops/github-app", "GET"],
      ["/api/ops/github-app/manifest", "POST"],
      ["/api/ops/github-app/manifest/callback?code=abc&state=def", "GET"],
    ] as const) {
      const res = await call(path, hubot, { method, ...(method === "POST" ? { body: '{"name":"x"}' } : {}) });
      expect([path, res.status, (await errorOf(res)).code]).toEqual([path, 403, "ops.forbidden"]);
    }
    expect(await storedCount()).toBe(0);
  });

  it("sends GitHub a private App manifest with Fixloop's URLs, exactly its permissions and its events", async () => {
    const flow = await start();
    const action = new URL(flow.action);
    expect(`${action.origin}${action.pathname}`).toBe(`${s.stack.github.url}/settings/apps/new`);
    expect(flow.state.length).toBeGreaterThanOrEqual(32);
    expect(JSON.parse(flow.manifest)).toEqual({
      name: "Fixloop Test",
      url: "http://localhost:3000",
      description: expect.any(String),
      hook_attributes: { url: "http://localhost:3000/api/github/webhook", active: true },
      redirect_url: "http://localhost:3000/api/ops/github-app/manifest/callback",
      callback_urls: ["http://localhost:3000/api/auth/github/callback"],
      setup_url: "http://localhost:3000/api/github/app/setup",
      setup_on_update: true,
      public: false,
      default_permissions: {
        contents: "write",
        pull_requests: "write",
        issues: "write",
        checks: "read",
        metadata: "read",
      },
      default_events: [...GITHUB_APP_EVENTS],
    });
    const org = await manifest(s.octocat, { name: "Fixloop", organization: "octo-org" });
    expect((await org.json()).action).toMatch(/\/organizations\/octo-org\/settings\/apps\/new\?state=/);
    // The browser may post that form to GitHub's web host, and to no other.
    const csp = org.headers.get("content-security-policy") ?? "";
    expect(csp).toContain(`form-action 'self' ${new URL(s.stack.github.url).origin};`);
    const bad = await manifest(s.octocat, { name: "x", organization: "../settings" });
    expect(bad.status).toBe(400);
  });

  it("refuses a forged state, another session's state and a replayed one; the App is stored once, encrypted", async () => {
    const flow = await start();
    const code = await createOnGithub(flow);
    const forged = await callback(s.octocat, code, "forged-state-0123456789abcdefghijklmnop");
    expect(forged.searchParams.get("error")).toBe("github_app.state_invalid");
    // The same operator in another browser (another session) cannot finish this browser's flow.
    const elsewhere = await s.stack.signIn("octocat");
    expect((await callback(elsewhere, code, flow.state)).searchParams.get("error")).toBe("github_app.state_invalid");
    expect(await storedCount()).toBe(0);

    const done = await callback(s.octocat, code, flow.state);
    const slug = done.searchParams.get("created") ?? "";
    expect([done.pathname, slug]).toEqual(["/ops/github-app", expect.stringMatching(/^fixloop-test-/)]);
    const replay = await callback(s.octocat, code, flow.state);
    expect(replay.searchParams.get("error")).toBe("github_app.state_reused");
    expect(await storedCount()).toBe(1);

    const onGithub = s.control.app(slug);
    const row = await s.stack.db.selectFrom("github_app_configs").selectAll().executeTakeFirstOrThrow();
    expect([row.app_id, row.slug, row.permissions]).toEqual([String(onGithub.id), slug, GITHUB_APP_PERMISSIONS]);
    const pemBody = onGithub.pem.split("\n")[1] ?? "";
    expect(JSON.stringify(row)).not.toContain(pemBody);
    expect(JSON.stringify(row)).not.toContain(onGithub.webhookSecret);
    const stored = await storedGithubApp(s.stack.ctx);
    expect([stored?.privateKey, stored?.webhookSecret]).toEqual([onGithub.pem, onGithub.webhookSecret]);
  });

  it("sends GitHub no code that is not a plain token (a path, say), and uses up no state for it", async () => {
    const flow = await start();
    const before = s.stack.github.control.requestLog.length;
    const res = await api(s.octocat).ops["github-app"].manifest.callback.$get({
      query: { code: "../../app", state: flow.state },
    });
    expect(res.status).toBe(400);
    expect(s.stack.github.control.requestLog.length).toBe(before);
    const row = await s.stack.db
      .selectFrom("github_app_manifest_states")
      .select("used_at")
      .where("state_hash", "=", hashSecret(flow.state))
      .executeTakeFirstOrThrow();
    expect(row.used_at).toBeNull();
  });

  it("refuses a code GitHub already converted, even with a fresh state", async () => {
    const first = await start();
    const code = await createOnGithub(first);
    expect((await callback(s.octocat, code, first.state)).searchParams.get("created")).toBeTruthy();
    const again = await start();
    expect((await callback(s.octocat, code, again.state)).searchParams.get("error")).toBe("github_app.code_invalid");
    expect(await storedCount()).toBe(2);
  });

  it("refuses an App that GitHub made with more permissions than Fixloop asked for, and keeps the one in use", async () => {
    const before = await githubApp(s.stack.ctx);
    // Owned by an organisation this time (GitHub's organisation variant of the flow).
    s.control.createOrganization("octo-labs");
    s.control.addOrgMember("octo-labs", "octocat", "admin");
    const flow = await start("Fixloop Test", "octo-labs");
    const code = await createOnGithub(
      flow,
      (m) => ({ ...m, default_permissions: { ...GITHUB_APP_PERMISSIONS, administration: "write", checks: "write" } }),
      "octo-labs",
    );
    const back = await callback(s.octocat, code, flow.state);
    expect(back.searchParams.get("error")).toBe("github_app.permissions_exceeded");
    expect(back.searchParams.get("slug")).toMatch(/^fixloop-test-/);
    expect(back.searchParams.get("org")).toBe("octo-labs");
    expect(await storedCount()).toBe(2);
    expect((await githubApp(s.stack.ctx))?.slug).toBe(before?.slug);
  });

  it("serves the next request with the new App, no restart: installation webhooks arrive at its hook, signed with its secret", async () => {
    const status = await api(s.octocat).ops["github-app"].$get();
    const body = await status.json();
    expect(body.source).toBe("stored");
    if (!body.stored || !body.inUse) throw new Error(`no stored App in use: ${JSON.stringify(body)}`);
    expect(body.inUse.slug).toBe(body.stored.slug);
    const slug = body.stored.slug;
    const app = s.control.app(slug);
    const before = (await s.control.webhookDeliveries()).length;
    const installationId = s.control.install("octocat", "octocat", ["todo-api"], slug);
    const sent = (await s.control.webhookDeliveries()).slice(before);
    expect(sent.map((d) => [d.event, d.status, d.headers["x-hub-signature-256"]])).toEqual([
      ["installation", 200, WebhookSender.sign(app.webhookSecret ?? "", sent[0]?.body ?? "")],
    ]);
    const setup = await api(s.octocat).github.app.setup.$get({
      query: { installation_id: String(installationId), setup_action: "install" },
    });
    expect(setup.headers.get("location")).toBe("http://localhost:3000/repositories?installed=true");
    const mine = await api(s.octocat).github.app.$get();
    expect(await mine.json()).toMatchObject({
      configured: true,
      installUrl: `${s.stack.github.url}/apps/${slug}/installations/new`,
      installations: [{ id: installationId, account: "octocat", repositorySelection: "selected" }],
    });
  });

  it("receives a review comment on an installed repository through the App's one webhook, with no repository webhook set", async () => {
    s.control.setWebhook(null); // no repository webhook: only the App's hook is left
    try {
      const pr = await s.openFixloopPull();
      const before = (await s.control.webhookDeliveries()).length;
      await s.gh("hubot").request("POST /repos/{owner}/{repo}/pulls/{pull_number}/comments", {
        ...s.REPO,
        pull_number: pr.number,
        body: "Please handle an empty page.",
        path: "src/paginate.ts",
        line: 1,
        commit_id: pr.sha,
      });
      const sent = (await s.control.webhookDeliveries()).slice(before);
      // Signed with the stored App's secret, which Fixloop decrypts to check it: GITHUB_WEBHOOK_SECRET differs.
      expect(sent.map((d) => [d.event, d.status])).toEqual([["pull_request_review_comment", 200]]);
      const slug = (await (await api(s.octocat).ops["github-app"].$get()).json()).stored?.slug ?? "";
      const app = s.control.app(slug);
      expect(sent[0]?.headers["x-hub-signature-256"]).toBe(
        WebhookSender.sign(app.webhookSecret ?? "", sent[0]?.body ?? ""),
      );
      expect(app.webhookSecret).not.toBe(s.hook.secret);
      expect(await s.timeline(pr.id)).toMatchObject([
        { kind: "review_comment", actor: "hubot", body: "Please handle an empty page." },
      ]);
    } finally {
      s.control.setWebhook(s.hook);
    }
  });

  it("lets the environment's App win by default, and the stored one when GITHUB_APP_PRECEDENCE is stored", async () => {
    const envApp = s.control.defaultApp();
    const env = {
      ...s.stack.ctx.env,
      GITHUB_APP_ID: String(envApp.id),
      GITHUB_APP_SLUG: envApp.slug,
      GITHUB_APP_PRIVATE_KEY: envApp.pem,
    };
    const ctx = { db: s.stack.db, cipher: s.stack.ctx.cipher };
    expect((await githubApp({ ...ctx, env: { ...env, GITHUB_APP_PRECEDENCE: "env" } }))?.slug).toBe(envApp.slug);
    const stored = await githubApp({ ...ctx, env: { ...env, GITHUB_APP_PRECEDENCE: "stored" } });
    expect(stored?.slug).toMatch(/^fixloop-test-/);
  });

  it("never shows a stored App's private key or secrets in an answer, a log line or a job payload", async () => {
    const slugs = (await s.stack.db.selectFrom("github_app_configs").select("slug").execute()).map((r) => r.slug);
    const secrets = slugs.flatMap((slug) => {
      const app = s.control.app(slug);
      return [...app.pem.split("\n").filter((l) => l.length > 40), app.webhookSecret ?? "", app.clientSecret];
    });
    expect(secrets.length).toBeGreaterThan(6);
    const jobs: string[] = [];
    for (const key of await s.stack.redis.keys(`${s.stack.prefix}:*`))
      if ((await s.stack.redis.type(key)) === "hash") jobs.push(JSON.stringify(await s.stack.redis.hgetall(key)));
    expect(jobs.length).toBeGreaterThan(0);
    const places = { answers: answered.join("\n"), logs: s.stack.logs.join("\n"), jobs: jobs.join("\n") };
    for (const [where, text] of Object.entries(places))
      for (const secret of secrets) expect(text.includes(secret), `${where} hold a secret`).toBe(false);
  });
});
