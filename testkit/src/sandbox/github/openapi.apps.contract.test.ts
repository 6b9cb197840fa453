import { createAppAuth } from "@octokit/auth-app";
import { Octokit } from "@octokit/rest";
import { beforeAll, describe, expect, it } from "vitest";
import type { TestSandbox } from "../../../test/github-sandbox";
import { openapiContract } from "../../../test/openapi-contract";

const { check, started } = openapiContract("apps");
let t: TestSandbox;
beforeAll(() => void ({ t } = started()));

const quiet = { debug() {}, info() {}, warn() {}, error() {} };

describe("responses match GitHub's OpenAPI description", () => {
  it("the App, its installation, a narrowed installation token and the repositories it reaches", async () => {
    const control = t.sandbox.control;
    const app = control.defaultApp();
    const id = control.install("octocat", "octocat", ["todo-api", "secret-notes"]);
    const asApp = new Octokit({
      authStrategy: createAppAuth,
      auth: { appId: app.id, privateKey: app.pem },
      baseUrl: t.sandbox.url,
      log: quiet,
    });
    const self = await check(asApp, "GET /app", {}, 200);
    expect(self).toMatchObject({ id: app.id, slug: app.slug });
    const all = await check(asApp, "GET /app/installations", { per_page: 100 }, 200);
    expect(all.map((i: { id: number }) => i.id)).toContain(id);
    const inst = await check(asApp, "GET /app/installations/{installation_id}", { installation_id: id }, 200);
    expect(inst).toMatchObject({ id, repository_selection: "selected", account: { login: "octocat" } });
    const minted = await check(
      asApp,
      "POST /app/installations/{installation_id}/access_tokens",
      { installation_id: id, repositories: ["todo-api"], permissions: { contents: "write", pull_requests: "write" } },
      201,
    );
    expect(minted.repositories.map((r: { full_name: string }) => r.full_name)).toEqual(["octocat/todo-api"]);
    expect(Date.parse(minted.expires_at) - Date.now()).toBeGreaterThan(59 * 60 * 1000);
    const bot = new Octokit({ auth: minted.token, baseUrl: t.sandbox.url, log: quiet });
    const listed = await check(bot, "GET /installation/repositories", {}, 200);
    expect(listed).toMatchObject({ total_count: 1, repository_selection: "selected" });
    await check(
      asApp,
      "POST /app/installations/{installation_id}/access_tokens",
      { installation_id: id, repositories: ["todo-api"], permissions: { administration: "write" } },
      422,
    );
  });

  it("the installations a user can reach, and their repositories", async () => {
    const me = t.octokit("octocat", ["read:user"]);
    const list = await check(me, "GET /user/installations", {}, 200);
    const id = list.installations[0]?.id as number;
    expect(list.total_count).toBe(1);
    const repos = await check(
      me,
      "GET /user/installations/{installation_id}/repositories",
      { installation_id: id },
      200,
    );
    expect(repos.repositories.map((r: { name: string }) => r.name).sort()).toEqual(["secret-notes", "todo-api"]);
  });

  it("a manifest code turns into the new App's id, key and secrets once", async () => {
    const manifest = JSON.stringify({
      name: "Fixloop Self-hosted",
      url: "https://fixloop.example",
      redirect_url: "https://fixloop.example/api/github/app/manifest",
      hook_attributes: { url: "https://fixloop.example/api/github/webhook" },
      default_permissions: { contents: "write", metadata: "read" },
      default_events: ["pull_request"],
    });
    const res = await fetch(`${t.sandbox.url}/settings/apps/new/confirm`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ manifest, state: "s1", login: "octocat" }).toString(),
      redirect: "manual",
    });
    const back = new URL(res.headers.get("location") ?? "");
    expect([res.status, back.pathname, back.searchParams.get("state")]).toEqual([
      302,
      "/api/github/app/manifest",
      "s1",
    ]);
    const code = back.searchParams.get("code") ?? "";
    const anon = new Octokit({ baseUrl: t.sandbox.url, log: quiet });
    const app = await check(anon, "POST /app-manifests/{code}/conversions", { code }, 201);
    expect(app).toMatchObject({ name: "Fixloop Self-hosted", owner: { login: "octocat" } });
    expect(app.pem).toMatch(/BEGIN RSA PRIVATE KEY/);
    expect(app.webhook_secret).toMatch(/^[0-9a-f]{40}$/);
    await check(anon, "POST /app-manifests/{code}/conversions", { code }, 404);
  });
});
