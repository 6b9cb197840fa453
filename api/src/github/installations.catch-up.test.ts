import { beforeAll, describe, expect, it } from "vitest";
import { installations } from "@fixloop/db";
import { catchUpInstallations, INSTALLATIONS_CATCH_UP_JOB } from "@fixloop/worker";
import { eventually } from "@fixloop/testkit";
import { createTestStack, type TestStack } from "../../test/stack";

let stack: TestStack;
let headers: Record<string, string>;
let octocatId: string;
beforeAll(async () => {
  stack = await createTestStack({
    workers: ["sync"],
    logLevel: "warn",
    envOf: (control) => {
      const app = control.defaultApp();
      return { GITHUB_APP_ID: String(app.id), GITHUB_APP_SLUG: app.slug, GITHUB_APP_PRIVATE_KEY: app.pem };
    },
  });
  const me = await stack.signIn("octocat");
  headers = me.headers;
  octocatId = me.user._id;
}, 60_000);

const repositories = async () => {
  const res = await stack.app.request("/api/github/repositories", { headers });
  const body = (await res.json()) as { repositories: { fullName: string }[] };
  return body.repositories.map((r) => r.fullName).sort();
};
const installationsOf = async () => {
  const res = await stack.app.request("/api/github/app", { headers });
  return ((await res.json()) as { installations: { id: number; suspended: boolean; repositoryCount: number }[] })
    .installations;
};

describe("the installations catch-up on start", () => {
  it("is queued by the worker serving sync when it starts, and runs", async () => {
    await eventually(
      async () => {
        const done = await stack.deps.queues.sync.getJobs(["completed"]);
        return done.some((j) => j.id?.startsWith(INSTALLATIONS_CATCH_UP_JOB) && j.data.kind === "installations");
      },
      { timeout: 15_000, interval: 100, what: "the installations catch-up job to complete" },
    );
  });

  it("reads back what GitHub changed while no API received its webhooks: a repository added, an installation suspended, one uninstalled", async () => {
    const control = stack.github.control;
    const id = control.install("octocat", "octocat", ["todo-api"]);
    const setup = await stack.app.request(`/api/github/app/setup?installation_id=${id}&setup_action=install`, {
      headers,
    });
    expect(setup.headers.get("location")).toMatch(/installed=true$/);
    const hubot = await stack.signIn("hubot");
    const other = control.install("hubot", "hubot", "all");
    await stack.app.request(`/api/github/app/setup?installation_id=${other}&setup_action=install`, {
      headers: hubot.headers,
    });
    expect(await installations.byId(stack.db, other)).toBeDefined();
    expect(await repositories()).toEqual(["octocat/todo-api"]);

    // Fixloop is down: every delivery fails.
    control.setWebhook({ url: "http://127.0.0.1:9/api/github/webhook", secret: "nobody-listens" });
    control.addInstallationRepositories(id, ["weather-cli"], "octocat");
    control.uninstall(other, "hubot");
    const missed = (await control.webhookDeliveries()).filter((d) => d.event.startsWith("installation"));
    expect(missed.length).toBeGreaterThanOrEqual(2);
    expect(missed.every((d) => d.status === 0)).toBe(true);
    // What Fixloop knows of its installations (what writes and webhooks go by) is behind GitHub.
    expect(await installationsOf()).toEqual([expect.objectContaining({ id, repositoryCount: 1 })]);
    expect(await installations.byId(stack.db, other)).toBeDefined();

    expect(await catchUpInstallations(stack.ctx)).toEqual({ count: 1 });
    expect(await installationsOf()).toEqual([expect.objectContaining({ id, suspended: false, repositoryCount: 2 })]);
    expect(await installations.byId(stack.db, other)).toBeUndefined();
    const token = control.issueToken("octocat", ["repo"]);
    const weatherCli = (await (
      await fetch(`${stack.github.url}/repos/octocat/weather-cli`, { headers: { authorization: `token ${token}` } })
    ).json()) as { id: number };
    expect(
      await installations.forRepository(stack.db, octocatId, { githubId: weatherCli.id, owner: "octocat" }),
    ).toBeDefined();
    expect(await repositories()).toEqual(["octocat/todo-api", "octocat/weather-cli"]);

    control.suspendInstallation(id, "octocat");
    await catchUpInstallations(stack.ctx);
    expect(await installationsOf()).toEqual([expect.objectContaining({ id, suspended: true })]);
    control.unsuspendInstallation(id, "octocat");
    await catchUpInstallations(stack.ctx);
    expect(await installationsOf()).toEqual([expect.objectContaining({ id, suspended: false })]);
  });
});
