import { describe, expect, it } from "vitest";
import { issues as issueRows } from "@fixloop/db";
import { seedRepository } from "@fixloop/testkit";
import { webhookStack } from "../../test/webhooks.testkit";

const t = await webhookStack({ workers: ["sync"] });
const REPO = "octocat/todo-api";

async function sync(repo = REPO) {
  const res = await t.stack.app.request(`/api/github/repositories/${repo}/sync`, {
    method: "POST",
    headers: t.octocat.headers,
  });
  expect(res.status).toBe(200);
}

/** New issues on the stand-in, synced into Fixloop while no webhook is delivered (so only GitHub reads tell). */
async function syncedIssues(titles: string[], repo = REPO): Promise<number[]> {
  t.control.setWebhook(null);
  const [owner = "", name = ""] = repo.split("/");
  const numbers = t.control.addIssues(
    owner,
    name,
    titles.map((title) => ({ title })),
  );
  await sync(repo);
  return numbers;
}

const row = (n: number, repo = REPO) =>
  issueRows
    .selectIssues(t.stack.db)
    .clearSelect()
    .select(["issues.id", "issues.status", "issues.state", "issues.gone", "issues.moved_to"])
    .where("issues.user_id", "=", t.octocat.user._id)
    .where("issue_repo.full_name", "=", repo)
    .where("issues.issue_number", "=", n)
    .executeTakeFirstOrThrow();

/** The user's runs and usage: a refused solve changes neither. */
async function charged() {
  const runs = await t.stack.db
    .selectFrom("solve_runs")
    .select("id")
    .where("user_id", "=", t.octocat.user._id)
    .execute();
  const usage = await t.stack.db
    .selectFrom("usage_counters")
    .select(["period_start", "used"])
    .where("user_id", "=", t.octocat.user._id)
    .execute();
  return { runs: runs.length, usage };
}

async function generate(issueId: string) {
  const res = await t.stack.app.request("/api/ai/generate-solution", {
    method: "POST",
    headers: { ...t.octocat.headers, "content-type": "application/json" },
    body: JSON.stringify({ issueId, modelId: "llama-3.3-70b-versatile" }),
  });
  return { status: res.status, body: (await res.json()) as { error?: { code: string; message: string } } };
}

describe("an issue deleted or transferred on GitHub, told by the issues webhook", () => {
  it("is marked by the signed issues.deleted and issues.transferred webhooks, and listed as such", async () => {
    const [deleted = 0, transferred = 0] = await syncedIssues(["Deleted by an admin", "Moved elsewhere"]);
    t.control.setWebhook(t.hook);
    const before = (await t.control.webhookDeliveries()).length;
    t.control.deleteIssue("octocat", "todo-api", deleted);
    const moved = t.control.transferIssue("octocat", "todo-api", transferred, {
      owner: "octocat",
      repo: "url-shortener",
    });
    const sent = (await t.control.webhookDeliveries()).slice(before);
    expect(sent.map((d) => [d.event, d.status])).toEqual([
      ["issues", 200],
      ["issues", 200],
    ]);
    expect(await row(deleted)).toMatchObject({ status: "closed", gone: "deleted", moved_to: null });
    const movedRow = await row(transferred);
    expect(movedRow).toMatchObject({ status: "closed", gone: "transferred" });
    expect(movedRow.moved_to).toMatch(new RegExp(`/octocat/url-shortener/issues/${moved}$`));

    const list = await t.stack.app.request("/api/issues", { headers: t.octocat.headers });
    const { issues } = (await list.json()) as {
      issues: {
        issueNumber: number;
        repoFullName: string;
        status: string;
        gone: string | null;
        movedTo: string | null;
      }[];
    };
    const listed = (n: number) => issues.find((i) => i.repoFullName === REPO && i.issueNumber === n);
    expect(listed(deleted)).toMatchObject({ status: "closed", gone: "deleted", movedTo: null });
    expect(listed(transferred)).toMatchObject({ status: "closed", gone: "transferred", movedTo: movedRow.moved_to });
  });

  it("is not marked by an unsigned or badly signed delivery, nor one that is not an address", async () => {
    const [n = 0] = await syncedIssues(["Still here"]);
    t.control.setWebhook(t.hook);
    const { data: repo } = await t.gh("octocat").rest.repos.get({ owner: "octocat", repo: "todo-api" });
    const event = {
      action: "deleted",
      repository: { id: repo.id, name: repo.name, full_name: repo.full_name, owner: { login: repo.owner.login } },
      issue: { number: n },
      sender: { login: "octocat" },
    };
    const unsigned = await t.post("issues", event, { signature: null });
    expect(unsigned.status).toBe(401);
    expect(((await unsigned.json()) as { error: { code: string } }).error.code).toBe("webhook.missing_signature");
    const forged = await t.post("issues", event, { signature: `sha256=${"0".repeat(64)}` });
    expect(forged.status).toBe(401);
    expect(((await forged.json()) as { error: { code: string } }).error.code).toBe("webhook.bad_signature");
    expect(await row(n)).toMatchObject({ status: "open", state: "open", gone: null, moved_to: null });
    // A transfer whose new place is no web address keeps no link to it.
    const hostile = await t.post("issues", {
      ...event,
      action: "transferred",
      changes: { new_issue: { html_url: "javascript:alert(1)" } },
    });
    expect(hostile.status).toBe(200);
    expect(await row(n)).toMatchObject({ status: "closed", gone: "transferred", moved_to: null });
  });
});

describe("a solve of an issue GitHub no longer has", () => {
  it("is refused for a deleted issue, charging nothing, and the issue is kept closed as deleted", async () => {
    const [n = 0] = await syncedIssues(["Spam that an admin deletes"]);
    const { id } = await row(n);
    t.control.deleteIssue("octocat", "todo-api", n);
    const before = await charged();
    const refused = await generate(id);
    expect(refused.status).toBe(410);
    expect(refused.body.error).toEqual({
      code: "issue.deleted",
      message: "This issue was deleted on GitHub, so it cannot be solved",
    });
    expect(await charged()).toEqual(before);
    expect(await row(n)).toMatchObject({ status: "closed", state: "closed", gone: "deleted", moved_to: null });
    // Known now: refused again without asking GitHub.
    t.control.clearRequestLog();
    expect((await generate(id)).body.error?.code).toBe("issue.deleted");
    expect(t.control.requestLog.filter((r) => r.path.includes(`/issues/${n}`))).toEqual([]);
    expect(await charged()).toEqual(before);
  });

  it("is refused for an issue transferred to another repository, saying where it went", async () => {
    const [n = 0] = await syncedIssues(["Belongs in the URL shortener"]);
    const { id } = await row(n);
    const moved = t.control.transferIssue("octocat", "todo-api", n, { owner: "octocat", repo: "url-shortener" });
    const before = await charged();
    const refused = await generate(id);
    expect(refused.status).toBe(410);
    expect(refused.body.error?.code).toBe("issue.transferred");
    expect(refused.body.error?.message).toMatch(
      new RegExp(
        `^This issue was transferred to another repository on GitHub \\(\\S+/octocat/url-shortener/issues/${moved}\\); import it from there to solve it$`,
      ),
    );
    expect(await charged()).toEqual(before);
    const after = await row(n);
    expect(after).toMatchObject({ status: "closed", gone: "transferred" });
    expect(after.moved_to).toMatch(new RegExp(`/octocat/url-shortener/issues/${moved}$`));
  });
});

describe("a solve of an issue whose repository was renamed on GitHub before Fixloop heard of it", () => {
  it("goes ahead, the rename being no transfer, and still tells an issue transferred from there", async () => {
    const OLD = "octocat/weather-cli";
    const [kept = 0, transferred = 0] = await syncedIssues(
      ["Still here, renamed with it", "Moved after the rename"],
      OLD,
    );
    // No webhook is delivered and no sync runs: Fixloop knows the repository by its old name only.
    await t.control.renameRepository("octocat", "weather-cli", "weather");
    const keptRow = await row(kept, OLD);
    t.control.clearRequestLog();
    const started = await generate(keptRow.id);
    expect(started.status).toBe(202);
    expect(started.body).toEqual({ runId: expect.any(String) as string });
    expect(await row(kept, OLD)).toMatchObject({ status: "open", state: "open", gone: null, moved_to: null });
    // GitHub was asked under the old name and redirected to the renamed repository.
    expect(t.control.requestLog.map((r) => [r.method, r.path, r.status])).toEqual(
      expect.arrayContaining([
        ["GET", `/repos/octocat/weather-cli/issues/${kept}`, 301],
        ["GET", `/repos/octocat/weather/issues/${kept}`, 200],
      ]),
    );

    const movedRow = await row(transferred, OLD);
    const moved = t.control.transferIssue("octocat", "weather", transferred, {
      owner: "octocat",
      repo: "url-shortener",
    });
    const refused = await generate(movedRow.id);
    expect(refused.status).toBe(410);
    expect(refused.body.error?.code).toBe("issue.transferred");
    const after = await row(transferred, OLD);
    expect(after).toMatchObject({ status: "closed", gone: "transferred" });
    expect(after.moved_to).toMatch(new RegExp(`/octocat/url-shortener/issues/${moved}$`));
  });
});

describe("the full issue sync", () => {
  it("marks an issue its complete listing no longer shows only when GitHub confirms it is gone", async () => {
    const [gone = 0, kept = 0] = await syncedIssues(["Deleted between syncs", "Still open"]);
    t.control.deleteIssue("octocat", "todo-api", gone);
    // A row GitHub answers 404 for (never seen there, or unreadable) is no proof of anything.
    await t.stack.db
      .insertInto("issues")
      .values({
        user_id: t.octocat.user._id,
        repository_github_id: await seedRepository(t.stack.db, REPO),
        issue_number: 9_999,
        title: "Not on GitHub",
        status: "open",
        html_url: `https://github.com/${REPO}/issues/9999`,
      })
      .execute();
    t.control.clearRequestLog();
    await sync();
    // One request for each issue the listing left out, none for the others (nor for rows already gone).
    const asked = t.control.requestLog.flatMap((r) => /\/issues\/(\d+)$/.exec(r.path)?.[1] ?? []).map(Number);
    expect(asked.sort((a, b) => a - b)).toEqual([gone, 9_999]);
    expect(await row(gone)).toMatchObject({ status: "closed", gone: "deleted" });
    expect(await row(kept)).toMatchObject({ status: "open", gone: null });
    expect(await row(9_999)).toMatchObject({ status: "open", gone: null });
  });
});
