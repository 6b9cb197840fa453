import { beforeAll, describe, expect, it } from "vitest";
import { issues } from "@fixloop/db";
import { webhookStack } from "../../test/webhooks.testkit";

type Stack = Awaited<ReturnType<typeof webhookStack>>;
let s: Stack;
let installationId = 0;

const appEnv = (control: Stack["stack"]["github"]["control"]) => {
  const app = control.defaultApp();
  return { GITHUB_APP_ID: String(app.id), GITHUB_APP_SLUG: app.slug, GITHUB_APP_PRIVATE_KEY: app.pem };
};

async function listed(): Promise<string[]> {
  const res = await s.stack.app.request("/api/github/repositories", { headers: s.octocat.headers });
  const body = (await res.json()) as { repositories: { fullName: string }[] };
  return body.repositories.map((r) => r.fullName).sort();
}

beforeAll(async () => {
  s = await webhookStack({ workers: ["sync"], appEnv });
}, 120_000);

describe("Fixloop as a GitHub App", () => {
  it("an OAuth-grant user is asked to install the App, and keeps their granted list until they do", async () => {
    const res = await s.stack.app.request("/api/github/app", { headers: s.octocat.headers });
    expect(await res.json()).toMatchObject({
      configured: true,
      installUrl: `${s.stack.github.url}/apps/fixloop-sandbox/installations/new`,
      installations: [],
      suggestInstall: true,
    });
    expect(await listed()).toContain("octocat/weather-cli");
  });

  it("asks that user once: the answer is kept by the server, and the OAuth grant keeps working", async () => {
    const answer = await s.stack.app.request("/api/github/app/prompt", {
      method: "POST",
      headers: s.octocat.headers,
    });
    expect(await answer.json()).toEqual({ answered: true });
    const again = await s.stack.app.request("/api/github/app", { headers: s.octocat.headers });
    expect(await again.json()).toMatchObject({ configured: true, installations: [], suggestInstall: false });
    expect(await listed()).toContain("octocat/weather-cli");
    const anonymous = await s.stack.app.request("/api/github/app/prompt", { method: "POST" });
    expect(anonymous.status).toBe(401);
  });

  it("installing on selected repositories makes the list exactly those, and it follows added and removed repositories by webhook", async () => {
    const control = s.stack.github.control;
    installationId = control.install("octocat", "octocat", ["todo-api"]);
    await control.webhookDeliveries();
    // The setup redirect GitHub sends the installer back with: adopted after reading it as the App.
    const setup = await s.stack.app.request(
      `/api/github/app/setup?installation_id=${installationId}&setup_action=install`,
      { headers: s.octocat.headers },
    );
    expect([setup.status, setup.headers.get("location")]).toEqual([
      302,
      "http://localhost:3000/repositories?installed=true",
    ]);
    expect(await listed()).toEqual(["octocat/todo-api"]);
    control.addInstallationRepositories(installationId, ["url-shortener"], "octocat");
    await control.webhookDeliveries();
    expect(await listed()).toEqual(["octocat/todo-api", "octocat/url-shortener"]);
    control.removeInstallationRepositories(installationId, ["todo-api"], "octocat");
    await control.webhookDeliveries();
    expect(await listed()).toEqual(["octocat/url-shortener"]);
    const app = await s.stack.app.request("/api/github/app", { headers: s.octocat.headers });
    expect(await app.json()).toMatchObject({
      installations: [
        {
          id: installationId,
          account: "octocat",
          repositorySelection: "selected",
          repositoryCount: 1,
          suspended: false,
          configureUrl: `${s.stack.github.url}/settings/installations/${installationId}`,
        },
      ],
      suggestInstall: false,
    });
  });

  it("a setup redirect for an installation on someone else's account links nothing", async () => {
    const control = s.stack.github.control;
    const theirs = control.install("hubot", "hubot", "all");
    const setup = await s.stack.app.request(`/api/github/app/setup?installation_id=${theirs}&setup_action=install`, {
      headers: s.octocat.headers,
    });
    expect(setup.headers.get("location")).toBe("http://localhost:3000/repositories?installed=pending");
    expect(await listed()).toEqual(["octocat/url-shortener"]);
  });

  it("a suspended installation stops solves of its repositories with a clear error", async () => {
    const control = s.stack.github.control;
    await listed();
    const [n = 0] = control.addIssues("octocat", "url-shortener", [{ title: "Short links collide" }]);
    const sync = await s.stack.app.request("/api/github/repositories/octocat/url-shortener/sync", {
      method: "POST",
      headers: s.octocat.headers,
    });
    expect(sync.status).toBe(200);
    const issue = await issues
      .selectIssues(s.stack.db)
      .where("issue_repo.full_name", "=", "octocat/url-shortener")
      .where("issues.issue_number", "=", n)
      .executeTakeFirstOrThrow();
    control.suspendInstallation(installationId, "octocat");
    await control.webhookDeliveries();
    const res = await s.stack.app.request("/api/ai/generate-solution", {
      method: "POST",
      headers: { ...s.octocat.headers, "content-type": "application/json" },
      body: JSON.stringify({ issueId: issue.id, modelId: "llama-3.3-70b-versatile" }),
    });
    const body = (await res.json()) as { error: { code: string; message: string } };
    expect([res.status, body.error.code]).toEqual([403, "github.installation_suspended"]);
    expect(body.error.message).toMatch(/installation on octocat is suspended/);
    // The list keeps the suspended installation's repositories (nothing to re-sync by hand).
    expect(await listed()).toEqual(["octocat/url-shortener"]);
    control.unsuspendInstallation(installationId, "octocat");
    await control.webhookDeliveries();
  });
});
