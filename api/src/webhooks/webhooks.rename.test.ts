import { describe, expect, it } from "vitest";
import { WebhookSender } from "@fixloop/testkit/sandbox";
import { issues, repositories } from "@fixloop/db";
import { issueColumns, type GithubIssue } from "@fixloop/runtime";
import { insertRun } from "@fixloop/testkit";
import { webhookStack } from "../../test/webhooks.testkit";

const t = await webhookStack();
const hubot = await t.stack.signIn("hubot", { scopes: ["public_repo"] });

async function addIssue(userId: string, repo: string, number: number) {
  await t.stack.db
    .insertInto("issues")
    .values({
      user_id: userId,
      repo_full_name: repo,
      issue_number: number,
      title: `Issue ${number}`,
      html_url: `https://github.com/${repo}/issues/${number}`,
    })
    .execute();
}

const repositoryRows = (githubId: number) =>
  t.stack.db
    .selectFrom("repositories")
    .select(["user_id", "owner", "name", "full_name", "html_url"])
    .where("github_id", "=", String(githubId))
    .orderBy("user_id")
    .execute();

const issueNames = (userId: string) =>
  t.stack.db
    .selectFrom("issues")
    .select(["repo_full_name", "issue_number"])
    .where("user_id", "=", userId)
    .orderBy("repo_full_name")
    .orderBy("issue_number")
    .execute();

const countDeliveries = async () =>
  Number(
    (
      await t.stack.db
        .selectFrom("webhook_events")
        .select((eb) => eb.fn.countAll().as("n"))
        .executeTakeFirstOrThrow()
    ).n,
  );

/** A `repository` `renamed` body as GitHub sends it (the fields Fixloop reads). */
const renamedEvent = (id: number, owner: string, name: string, from: string) => ({
  action: "renamed",
  changes: { repository: { name: { from } } },
  repository: { id, name, full_name: `${owner}/${name}`, owner: { login: owner } },
  sender: { login: owner },
});

describe("a repository renamed or transferred on GitHub, seen through webhooks", () => {
  it("applies a pull request's webhook under the new name when the rename itself was never delivered", async () => {
    await t.storeRepository(t.octocat.user._id, "octocat", "todo-api");
    const pr = await t.openFixloopPull();
    const before = await t.gh("octocat").rest.repos.get(t.REPO);
    // A delivery seen before the rename (under the old name) ...
    const early = crypto.randomUUID();
    const issueEdited = (repo: { id: number; name: string; full_name: string }) => ({
      action: "edited",
      repository: { ...repo, owner: { login: "octocat" } },
      issue: { number: 1 },
      sender: { login: "octocat" },
    });
    expect((await t.post("issues", issueEdited(before.data), { delivery: early })).status).toBe(200);

    t.control.setWebhook(null);
    await t.control.renameRepository("octocat", "todo-api", "todo-service");
    t.control.setWebhook(t.hook);
    const sent = (await t.control.webhookDeliveries()).length;
    await t.gh("octocat").rest.pulls.update({
      owner: "octocat",
      repo: "todo-service",
      pull_number: pr.number,
      state: "closed",
    });
    const delivered = (await t.control.webhookDeliveries()).slice(sent);
    expect(delivered.map((d) => [d.event, d.status])).toEqual([["pull_request", 200]]);

    const row = await t.stack.db
      .selectFrom("pull_requests")
      .select(["status", "repo_full_name", "head_repo_full_name"])
      .where("id", "=", pr.id)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({
      status: "closed",
      repo_full_name: "octocat/todo-service",
      head_repo_full_name: "octocat/todo-service",
    });
    expect(await t.timeline(pr.id)).toMatchObject([{ kind: "closed", actor: "octocat" }]);
    const [repo] = await repositoryRows(before.data.id);
    expect(repo).toMatchObject({ owner: "octocat", name: "todo-service", full_name: "octocat/todo-service" });
    expect(repo?.html_url).toBe(`${new URL(before.data.html_url).origin}/octocat/todo-service`);
    expect((await issueNames(t.octocat.user._id)).map((i) => i.repo_full_name)).toEqual(["octocat/todo-service"]);

    // ... replayed afterwards is a duplicate: it never moves the repository back to the old name.
    const replay = await t.post("issues", issueEdited(before.data), { delivery: early });
    expect(await replay.json()).toEqual({ status: "duplicate", duplicate: true });
    expect((await repositoryRows(before.data.id)).map((r) => r.full_name)).toEqual(["octocat/todo-service"]);
  });

  it("moves every user's repository and its issues on repository.renamed and repository.transferred", async () => {
    const users = [t.octocat.user._id, hubot.user._id].sort();
    let id = 0;
    for (const user of users) {
      id = await t.storeRepository(user, "octocat", "url-shortener");
      await addIssue(user, "octocat/url-shortener", 3);
      await addIssue(user, "octocat/url-shortener", 4);
    }
    // Another repository of the same user keeps its issues.
    await addIssue(hubot.user._id, "octocat/weather-cli", 1);

    const sent = (await t.control.webhookDeliveries()).length;
    await t.control.renameRepository("octocat", "url-shortener", "shortener");
    expect((await t.control.webhookDeliveries()).slice(sent).map((d) => [d.event, d.status])).toEqual([
      ["repository", 200],
    ]);
    expect((await repositoryRows(id)).map((r) => [r.user_id, r.owner, r.name, r.full_name])).toEqual(
      users.map((u) => [u, "octocat", "shortener", "octocat/shortener"]),
    );
    for (const user of users)
      expect((await issueNames(user)).filter((i) => i.repo_full_name.endsWith("shortener"))).toEqual([
        { repo_full_name: "octocat/shortener", issue_number: 3 },
        { repo_full_name: "octocat/shortener", issue_number: 4 },
      ]);
    expect(await issueNames(hubot.user._id)).toContainEqual({ repo_full_name: "octocat/weather-cli", issue_number: 1 });

    await t.control.transferRepository("octocat", "shortener", "monalisa");
    const all = await t.control.webhookDeliveries();
    expect(all.slice(sent).map((d) => [d.event, d.status])).toEqual([
      ["repository", 200],
      ["repository", 200],
    ]);
    expect((await repositoryRows(id)).map((r) => [r.owner, r.full_name, new URL(r.html_url).pathname])).toEqual([
      ["monalisa", "monalisa/shortener", "/monalisa/shortener"],
      ["monalisa", "monalisa/shortener", "/monalisa/shortener"],
    ]);
    expect(await issueNames(hubot.user._id)).toEqual([
      { repo_full_name: "monalisa/shortener", issue_number: 3 },
      { repo_full_name: "monalisa/shortener", issue_number: 4 },
      { repo_full_name: "octocat/weather-cli", issue_number: 1 },
    ]);
    const stored = await t.stack.db
      .selectFrom("webhook_events")
      .select("type")
      .where("event_id", "=", `github:${all.at(-1)?.id ?? ""}`)
      .executeTakeFirstOrThrow();
    expect(stored.type).toBe("repository.transferred");
  });

  it("still ignores a delivery for a repository id and name Fixloop does not know", async () => {
    const count = await countDeliveries();
    const renamed = await t.post("repository", renamedEvent(987_654_321, "evil", "renamed", "unknown"));
    expect(renamed.status).toBe(202);
    expect(await renamed.json()).toEqual({ status: "ignored", reason: "unknown_repository" });
    const closed = await t.post("pull_request", {
      action: "closed",
      repository: { id: 987_654_321, name: "renamed", full_name: "evil/renamed", owner: { login: "evil" } },
      pull_request: { number: 1, merged: false },
    });
    expect(await closed.json()).toEqual({ status: "ignored", reason: "unknown_repository" });
    expect(await countDeliveries()).toBe(count);
  });

  it("changes nothing for a forged, unsigned or ill-named rename of a known repository", async () => {
    const id = await t.storeRepository(t.octocat.user._id, "octocat", "weather-cli");
    await addIssue(t.octocat.user._id, "octocat/weather-cli", 7);
    const rows = await repositoryRows(id);
    const issues = await issueNames(t.octocat.user._id);
    const count = await countDeliveries();
    const body = renamedEvent(id, "octocat", "stolen", "weather-cli");

    const forged = await t.post("repository", body, {
      signature: WebhookSender.sign("not-the-secret", JSON.stringify(body)),
    });
    expect(forged.status).toBe(401);
    expect(((await forged.json()) as { error: { code: string } }).error.code).toBe("webhook.bad_signature");
    const unsigned = await t.post("repository", body, { signature: null });
    expect(unsigned.status).toBe(401);
    expect(((await unsigned.json()) as { error: { code: string } }).error.code).toBe("webhook.missing_signature");

    // Signed, but naming it as GitHub never would: a full name that is not owner/name, a path.
    const mismatched = await t.post("repository", {
      ...body,
      repository: { ...body.repository, full_name: "octocat/weather-cli" },
    });
    expect(mismatched.status).toBe(400);
    expect(await mismatched.json()).toMatchObject({
      error: { code: "webhook.invalid_payload", message: expect.stringContaining("repository.full_name") as string },
    });
    const dots = await t.post("repository", renamedEvent(id, "octocat", "..", "weather-cli"));
    expect(await dots.json()).toEqual({ status: "ignored", reason: "unknown_repository" });
    const pushed = await t.post("push", {
      ref: "refs/heads/main",
      repository: { id, name: "..", full_name: "octocat/..", owner: { login: "octocat" } },
      commits: [],
    });
    expect(await pushed.json()).toEqual({ status: "ignored", reason: "unknown_repository" });

    expect(await repositoryRows(id)).toEqual(rows);
    expect(await issueNames(t.octocat.user._id)).toEqual(issues);
    expect(await countDeliveries()).toBe(count);
  });
});

describe("a repository of managed users (Enterprise Managed Users) renamed or transferred on GitHub", () => {
  /** Stored as a sync of a managed user's repository stores it: the login ends `_` and the short code. */
  async function storeManaged(id: number, owner: string, name: string) {
    await repositories.upsertSynced(t.stack.db, t.octocat.user._id, {
      github_id: id,
      owner,
      name,
      full_name: `${owner}/${name}`,
      description: null,
      is_private: true,
      is_fork: false,
      language: null,
      html_url: `https://github.com/${owner}/${name}`,
      default_branch: "main",
      can_push: true,
    });
  }

  it("is followed: its rows move to the new name and to the new owner", async () => {
    const id = 880_000_001;
    await storeManaged(id, "mona_acme", "todo");
    await addIssue(t.octocat.user._id, "mona_acme/todo", 2);

    const renamed = await t.post("repository", renamedEvent(id, "mona_acme", "todo-next", "todo"));
    expect(renamed.status).toBe(200);
    expect((await repositoryRows(id)).map((r) => [r.owner, r.name, r.full_name, r.html_url])).toEqual([
      ["mona_acme", "todo-next", "mona_acme/todo-next", "https://github.com/mona_acme/todo-next"],
    ]);
    expect(await issueNames(t.octocat.user._id)).toContainEqual({
      repo_full_name: "mona_acme/todo-next",
      issue_number: 2,
    });

    const transferred = await t.post("repository", {
      action: "transferred",
      changes: { owner: { from: { user: { login: "mona_acme" } } } },
      repository: { id, name: "todo-next", full_name: "hubot-2_acme2/todo-next", owner: { login: "hubot-2_acme2" } },
      sender: { login: "mona_acme" },
    });
    expect(transferred.status).toBe(200);
    expect((await repositoryRows(id)).map((r) => r.full_name)).toEqual(["hubot-2_acme2/todo-next"]);
    expect(await issueNames(t.octocat.user._id)).toContainEqual({
      repo_full_name: "hubot-2_acme2/todo-next",
      issue_number: 2,
    });
  });

  it("is not moved to an owner login GitHub never gives", async () => {
    const id = 880_000_002;
    await storeManaged(id, "lisa_acme", "notes");
    await addIssue(t.octocat.user._id, "lisa_acme/notes", 4);
    const rows = await repositoryRows(id);
    const before = await issueNames(t.octocat.user._id);
    const count = await countDeliveries();
    for (const owner of [
      "_acme",
      "lisa_",
      "lisa__acme",
      "lisa_ac_me",
      "lisa_ac-me",
      "-lisa_acme",
      "lisa.acme",
      "..",
      "lisa/acme",
      "lisa acme",
      "lisa\u0000acme",
      "lisa\nacme",
      "lisa\u202eacme",
      `${"l".repeat(35)}_acme`,
    ]) {
      const res = await t.post("repository", renamedEvent(id, owner, "notes", "notes"));
      expect([owner, res.status, await res.json()]).toEqual([
        owner,
        202,
        { status: "ignored", reason: "unknown_repository" },
      ]);
    }
    expect(await repositoryRows(id)).toEqual(rows);
    expect(await issueNames(t.octocat.user._id)).toEqual(before);
    expect(await countDeliveries()).toBe(count);
  });
});

describe("an issue deleted on GitHub after its repository was renamed", () => {
  const issueRow = (id: string) =>
    t.stack.db.selectFrom("issues").select(["status", "gone"]).where("id", "=", id).executeTakeFirstOrThrow();
  const runRow = (id: string) =>
    t.stack.db.selectFrom("solve_runs").select(["status", "error_code"]).where("id", "=", id).executeTakeFirstOrThrow();
  const queuedRun = async (userId: string, issueId: string) =>
    (await insertRun(t.stack.db, { user_id: userId, issue_id: issueId, kind: "solve", status: "queued" })).id;

  /**
   * octocat's repository octocat/`name` with issue #n, stored for octocat as a sync stores it and
   * imported by hubot by URL (an import keeps the upstream's name of the day), each row with a
   * queued run; then renamed to octocat/`name`-next. Also hubot's row of #n of a repository that
   * had the new name before: another issue, with another id.
   */
  async function importedThenRenamed(name: string) {
    const renamed = `${name}-next`;
    await t.control.createRepository("octocat", name);
    const [n = 0] = t.control.addIssues("octocat", name, [{ title: "Notes lose their order" }]);
    const found = (await t.gh("octocat").rest.issues.get({ owner: "octocat", repo: name, issue_number: n }))
      .data as GithubIssue;
    await t.storeRepository(t.octocat.user._id, "octocat", name);
    const repo = await t.stack.db
      .selectFrom("repositories")
      .select("id")
      .where("user_id", "=", t.octocat.user._id)
      .where("full_name", "=", `octocat/${name}`)
      .executeTakeFirstOrThrow();
    await issues.upsertSynced(t.stack.db, t.octocat.user._id, { id: repo.id, fullName: `octocat/${name}` }, [
      issueColumns(found),
    ]);
    const owners = await t.stack.db
      .selectFrom("issues")
      .select("id")
      .where("user_id", "=", t.octocat.user._id)
      .where("repo_full_name", "=", `octocat/${name}`)
      .executeTakeFirstOrThrow();
    const imported = await issues.recordImported(
      t.stack.db,
      hubot.user._id,
      { upstream: `octocat/${name}`, fork: `hubot/${name}` },
      issueColumns(found),
    );
    const sent = (await t.control.webhookDeliveries()).length;
    await t.control.renameRepository("octocat", name, renamed);
    expect((await t.control.webhookDeliveries()).slice(sent).map((d) => [d.event, d.status])).toEqual([
      ["repository", 200],
    ]);
    // The owner's row followed the rename; the importer's stayed under the name it was imported from.
    expect(await issueNames(t.octocat.user._id)).toContainEqual({
      repo_full_name: `octocat/${renamed}`,
      issue_number: n,
    });
    expect(await issueNames(hubot.user._id)).toContainEqual({ repo_full_name: `octocat/${name}`, issue_number: n });
    const other = await issues.recordImported(
      t.stack.db,
      hubot.user._id,
      { upstream: `octocat/${renamed}`, fork: `hubot/${renamed}` },
      { ...issueColumns(found), github_id: found.id + 7_000_000, title: "Another repository's issue" },
    );
    return {
      n,
      renamed,
      githubId: found.id,
      owners: { issue: owners.id, run: await queuedRun(t.octocat.user._id, owners.id) },
      imported: { issue: imported, run: await queuedRun(hubot.user._id, imported) },
      other: { issue: other, run: await queuedRun(hubot.user._id, other) },
    };
  }

  it("is marked gone, its runs stopped, for the owner and for the importer's row under the former name", async () => {
    const s = await importedThenRenamed("notes-app");
    const sent = (await t.control.webhookDeliveries()).length;
    t.control.deleteIssue("octocat", s.renamed, s.n);
    const delivered = (await t.control.webhookDeliveries()).slice(sent);
    expect(delivered.map((d) => [d.event, d.status])).toEqual([["issues", 200]]);

    for (const row of [s.owners, s.imported]) {
      expect(await issueRow(row.issue)).toEqual({ status: "closed", gone: "deleted" });
      expect(await runRow(row.run)).toEqual({ status: "cancelled", error_code: "issue.gone" });
    }
    // Same name and number, another id: left alone, its run still queued.
    expect(await issueRow(s.other.issue)).toMatchObject({ gone: null });
    expect(await runRow(s.other.run)).toEqual({ status: "queued", error_code: null });
  });

  it("is marked gone for the importer's row under the former name too when the owner's solve start finds it deleted", async () => {
    const s = await importedThenRenamed("journal-app");
    // No webhook tells of the delete: only the solve start's read of the issue does.
    t.control.setWebhook(null);
    t.control.deleteIssue("octocat", s.renamed, s.n);
    t.control.setWebhook(t.hook);
    const res = await t.stack.app.request("/api/ai/generate-solution", {
      method: "POST",
      headers: { ...t.octocat.headers, "content-type": "application/json" },
      body: JSON.stringify({ issueId: s.owners.issue, modelId: "llama-3.3-70b-versatile" }),
    });
    expect(res.status).toBe(410);
    expect(await res.json()).toMatchObject({ error: { code: "issue.deleted" } });

    for (const row of [s.owners, s.imported]) {
      expect(await issueRow(row.issue)).toEqual({ status: "closed", gone: "deleted" });
      expect(await runRow(row.run)).toEqual({ status: "cancelled", error_code: "issue.gone" });
    }
    // Same name and number, another id: left alone, its run still queued.
    expect(await issueRow(s.other.issue)).toMatchObject({ gone: null });
    expect(await runRow(s.other.run)).toEqual({ status: "queued", error_code: null });
  });

  it("marks nothing for a signed delivery whose issue id and number do not go together", async () => {
    const s = await importedThenRenamed("diary-app");
    const repo = (await t.gh("octocat").rest.repos.get({ owner: "octocat", repo: s.renamed })).data;
    const before = await Promise.all([s.owners, s.imported, s.other].map((r) => issueRow(r.issue)));
    // A repository Fixloop knows, the issue's id, but another number (a number the other row has, too).
    for (const issue of [
      { id: s.githubId, number: s.n + 1 },
      { id: s.githubId + 7_000_000 + 1, number: s.n },
    ]) {
      const res = await t.post("issues", {
        action: "deleted",
        repository: { id: repo.id, name: repo.name, full_name: repo.full_name, owner: { login: "octocat" } },
        issue,
        sender: { login: "octocat" },
      });
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({ status: "ignored", reason: "no_issue_to_mark" });
    }
    // An id GitHub never sends is refused as a whole.
    const bad = await t.post("issues", {
      action: "deleted",
      repository: { id: repo.id, name: repo.name, full_name: repo.full_name, owner: { login: "octocat" } },
      issue: { id: "1 or 1=1", number: s.n },
    });
    expect(bad.status).toBe(400);
    expect(await bad.json()).toMatchObject({
      error: { code: "webhook.invalid_payload", message: expect.stringContaining("issue.id") as string },
    });
    expect(await Promise.all([s.owners, s.imported, s.other].map((r) => issueRow(r.issue)))).toEqual(before);
    for (const r of [s.owners, s.imported, s.other])
      expect(await runRow(r.run)).toEqual({ status: "queued", error_code: null });
  });
});
