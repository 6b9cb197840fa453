import crypto from "node:crypto";
import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { createAppAuth } from "@octokit/auth-app";
import { Octokit } from "@octokit/rest";
import { Ajv } from "ajv";
import addFormatsModule from "ajv-formats";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ROOT } from "../../paths";
import { startTestSandbox, type TestSandbox } from "../../../test/github-sandbox";

const quiet = { debug() {}, info() {}, warn() {}, error() {} };
const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv;
const ajv = addFormats(new Ajv({ strict: false, allErrors: true, logger: false }));
let t: TestSandbox;
let receiver: http.Server;
let setupUrl = "";

beforeAll(async () => {
  ajv.addSchema(
    JSON.parse(
      fs.readFileSync(path.join(ROOT, "node_modules/@octokit/webhooks-schemas/schema.json"), "utf8"),
    ) as object,
    "webhooks",
  );
  receiver = http.createServer((req, res) => void req.resume().on("end", () => res.writeHead(200).end("{}")));
  await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
  t = await startTestSandbox();
  const { port } = receiver.address() as AddressInfo;
  t.sandbox.control.setWebhook({ url: `http://127.0.0.1:${port}/hook`, secret: "s" });
  setupUrl = `http://127.0.0.1:${port}/setup`;
  t.sandbox.control.setDefaultAppSetupUrl(setupUrl);
});

afterAll(async () => {
  await t.stop();
  await new Promise<void>((resolve) => receiver.close(() => resolve()));
});

const asApp = () => {
  const app = t.sandbox.control.defaultApp();
  return new Octokit({
    authStrategy: createAppAuth,
    auth: { appId: app.id, privateKey: app.pem },
    baseUrl: t.sandbox.url,
    log: quiet,
  });
};

async function mint(installationId: number, body: Record<string, unknown> = {}): Promise<string> {
  const res = await asApp().request("POST /app/installations/{installation_id}/access_tokens", {
    installation_id: installationId,
    ...body,
  });
  return res.data.token;
}

const statusOf = (p: Promise<unknown>) =>
  p.then(
    () => 200,
    (e: { status?: number }) => e.status ?? 0,
  );

function jwt(claims: object, key: string): string {
  const part = (o: object) => Buffer.from(JSON.stringify(o)).toString("base64url");
  const unsigned = `${part({ alg: "RS256", typ: "JWT" })}.${part(claims)}`;
  return `${unsigned}.${crypto.sign("RSA-SHA256", Buffer.from(unsigned), key).toString("base64url")}`;
}

describe("the stand-in's GitHub App", () => {
  it("installs on selected repositories from its installation page, back to the setup URL, with installation webhooks as published", async () => {
    const page = await fetch(`${t.sandbox.url}/apps/fixloop-sandbox/installations/new?login=octocat`);
    expect(await page.text()).toContain('value="octocat/todo-api"');
    const form = new URLSearchParams({ login: "octocat", account: "octocat", selection: "selected", state: "st" });
    form.append("repo", "octocat/todo-api");
    form.append("repo", "hubot/markdown-lint"); // another account's: ignored
    const res = await fetch(`${t.sandbox.url}/apps/fixloop-sandbox/installations/new`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: form.toString(),
      redirect: "manual",
    });
    const back = new URL(res.headers.get("location") ?? "");
    expect(`${back.origin}${back.pathname}`).toBe(setupUrl);
    expect(back.searchParams.get("setup_action")).toBe("install");
    const id = Number(back.searchParams.get("installation_id"));
    const control = t.sandbox.control;
    control.addInstallationRepositories(id, ["url-shortener"], "octocat");
    control.removeInstallationRepositories(id, ["url-shortener"], "octocat");
    control.suspendInstallation(id, "octocat");
    control.unsuspendInstallation(id, "octocat");
    const hooks = (await control.webhookDeliveries()).filter((d) => d.event.startsWith("installation"));
    const bodies = hooks.map((d) => JSON.parse(d.body) as { action: string; repositories?: { full_name: string }[] });
    expect(hooks.map((d, i) => `${d.event}.${bodies[i]?.action}`)).toEqual([
      "installation.created",
      "installation_repositories.added",
      "installation_repositories.removed",
      "installation.suspend",
      "installation.unsuspend",
    ]);
    expect(bodies[0]?.repositories?.map((r) => r.full_name)).toEqual(["octocat/todo-api"]);
    const errors = hooks.flatMap((d, i) => {
      const check = ajv.getSchema(`webhooks#/definitions/${d.event}$${bodies[i]?.action}`);
      return !check
        ? [`no schema for ${d.event}`]
        : check(bodies[i])
          ? []
          : (check.errors ?? []).map((e) => `${d.event} ${e.instancePath} ${e.message}`);
    });
    expect(errors).toEqual([]);
  });

  it("an installation token writes only to the repository it was narrowed to, with the permissions it was given, for an hour", async () => {
    const id = t.sandbox.control.install("octocat", "octocat", "all");
    const token = await mint(id, { repositories: ["todo-api"], permissions: { issues: "write" } });
    const bot = new Octokit({ auth: token, baseUrl: t.sandbox.url, log: quiet });
    const o = { owner: "octocat", repo: "todo-api" };
    const comment = await bot.rest.issues.createComment({ ...o, issue_number: 1, body: "from the bot" });
    expect(comment.data.user?.login).toBe("fixloop-sandbox[bot]");
    // Another repository of the same installation: refused.
    expect(
      await statusOf(
        bot.rest.issues.createComment({ owner: "octocat", repo: "url-shortener", issue_number: 1, body: "x" }),
      ),
    ).toBe(403);
    // A permission the token was not given (contents): refused.
    expect(await statusOf(bot.rest.git.createRef({ ...o, ref: "refs/heads/bot", sha: "0".repeat(40) }))).toBe(403);
    // A private repository outside the token is not even there.
    expect(await statusOf(bot.rest.repos.get({ owner: "octocat", repo: "secret-notes" }))).toBe(404);
    // More than the installation has: 422; a repository outside it: 422.
    expect(await statusOf(mint(id, { permissions: { administration: "write" } }))).toBe(422);
    expect(await statusOf(mint(id, { repositories: ["markdown-lint"] }))).toBe(422);
    t.sandbox.control.expireInstallationTokens();
    expect(await statusOf(bot.rest.issues.createComment({ ...o, issue_number: 1, body: "late" }))).toBe(401);
    const fresh = new Octokit({
      auth: await mint(id, { repositories: ["todo-api"] }),
      baseUrl: t.sandbox.url,
      log: quiet,
    });
    expect(await statusOf(fresh.rest.issues.createComment({ ...o, issue_number: 1, body: "again" }))).toBe(200);
    t.sandbox.control.suspendInstallation(id, "octocat");
    expect(await statusOf(fresh.rest.issues.createComment({ ...o, issue_number: 1, body: "suspended" }))).toBe(401);
    expect(await statusOf(mint(id))).toBe(403);
    t.sandbox.control.uninstall(id, "octocat");
  });

  it("refuses an App JWT that is forged, expired or too long-lived, and a user token on App endpoints", async () => {
    const app = t.sandbox.control.defaultApp();
    const now = Math.floor(Date.now() / 1000);
    const other = crypto
      .generateKeyPairSync("rsa", { modulusLength: 2048 })
      .privateKey.export({ type: "pkcs1", format: "pem" })
      .toString();
    const call = (bearer: string) =>
      fetch(`${t.sandbox.url}/app`, { headers: { authorization: `Bearer ${bearer}` } }).then((r) => r.status);
    expect(await call(jwt({ iss: app.id, iat: now - 30, exp: now + 540 }, app.pem))).toBe(200);
    expect(await call(jwt({ iss: app.id, iat: now - 30, exp: now + 540 }, other))).toBe(401);
    expect(await call(jwt({ iss: app.id, iat: now - 900, exp: now - 300 }, app.pem))).toBe(401);
    expect(await call(jwt({ iss: app.id, iat: now, exp: now + 3600 }, app.pem))).toBe(401);
    expect(await call(t.sandbox.control.issueToken("octocat", ["repo"]))).toBe(401);
  });
});
