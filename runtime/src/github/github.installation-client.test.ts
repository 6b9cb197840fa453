import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestSandbox, type TestSandbox } from "@fixloop/testkit";
import { INSTALLATION_PERMISSIONS } from "./github.app";
import { createGithubClient } from "./github.client";

let t: TestSandbox;
let installationId = 0;
beforeAll(async () => {
  t = await startTestSandbox();
  installationId = t.sandbox.control.install("octocat", "octocat", "all");
}, 60_000);
afterAll(() => t.stop());

const client = (repositoryNames: string[]) => {
  const app = t.sandbox.control.defaultApp();
  return createGithubClient({
    baseUrl: t.sandbox.url,
    app: {
      appId: String(app.id),
      privateKey: app.pem,
      installationId,
      repositoryNames,
      permissions: INSTALLATION_PERMISSIONS.issue,
    },
  });
};
const o = { owner: "octocat", repo: "todo-api" };
const mints = () =>
  t.sandbox.control.requestLog.filter((r) => r.method === "POST" && r.path.endsWith("/access_tokens"));

describe("an installation client", () => {
  it("mints a token narrowed to its repository once, as the App's bot, and mints again when GitHub refuses an expired one", async () => {
    const gh = client(["todo-api"]);
    t.sandbox.control.clearRequestLog();
    const first = await gh.rest.issues.createComment({ ...o, issue_number: 1, body: "first" });
    await gh.rest.issues.createComment({ ...o, issue_number: 1, body: "second" });
    expect(first.data.user?.login).toBe("fixloop-sandbox[bot]");
    expect(mints()).toHaveLength(1);
    t.sandbox.control.expireInstallationTokens();
    const again = await gh.rest.issues.createComment({ ...o, issue_number: 1, body: "after expiry" });
    expect(again.status).toBe(201);
    const comments = t.sandbox.control.requestLog.filter((r) => r.path.endsWith("/issues/1/comments"));
    expect(comments.map((r) => r.status)).toEqual([201, 201, 401, 201]);
    expect(mints()).toHaveLength(2);
    // The token never appears in a URL the client sends.
    expect(t.sandbox.control.requestLog.some((r) => /ghs_/.test(r.path))).toBe(false);
  });

  it("is refused by GitHub on a repository outside its narrowing, and does not widen itself", async () => {
    const gh = client(["todo-api"]);
    t.sandbox.control.clearRequestLog();
    const status = await gh.rest.issues
      .createComment({ owner: "octocat", repo: "url-shortener", issue_number: 1, body: "wrong repository" })
      .then(
        () => 201,
        (e: { status: number }) => e.status,
      );
    expect(status).toBe(403);
    const minted = mints();
    expect(minted).toHaveLength(1);
  });
});
