import { describe, expect, it } from "vitest";
import { pullRequests } from "@fixloop/db";
import { WebhookSender } from "@fixloop/testkit/sandbox";
import { renamedEvent, renameRows, webhookStack } from "../../test/webhooks.testkit";

const t = await webhookStack();
const hubot = await t.stack.signIn("hubot", { scopes: ["public_repo"] });
const { addIssue, repositoryRows, issueNames, countDeliveries } = renameRows(t);

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

    const row = await pullRequests
      .selectPullRequests(t.stack.db)
      .where("pull_requests.id", "=", pr.id)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({
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

  it("never hands a renamed repository's issues to a new repository that takes its former name", async () => {
    await t.control.createRepository("octocat", "pastebin");
    const oldId = await t.storeRepository(t.octocat.user._id, "octocat", "pastebin");
    await addIssue(t.octocat.user._id, "octocat/pastebin", 3);
    await t.control.renameRepository("octocat", "pastebin", "pastebin-old");
    const newId = await t.control.createRepository("octocat", "pastebin");
    expect(newId).not.toBe(oldId);
    const deleted = (id: number) => ({
      action: "deleted",
      repository: { id, name: "pastebin", full_name: "octocat/pastebin", owner: { login: "octocat" } },
      issue: { number: 3 },
      sender: { login: "octocat" },
    });
    const mine = async () =>
      (await issueNames(t.octocat.user._id)).filter((i) => i.repo_full_name.startsWith("octocat/pastebin"));
    expect(await mine()).toEqual([{ repo_full_name: "octocat/pastebin-old", issue_number: 3 }]);

    // Its #3 deleted: a delivery of the new repository is not one of the repository Fixloop keeps.
    const unknown = await t.post("issues", deleted(newId));
    expect(await unknown.json()).toEqual({ status: "ignored", reason: "unknown_repository" });
    // Once synced, it is known by its own id, with no issue of the old one.
    await t.storeRepository(t.octocat.user._id, "octocat", "pastebin");
    const none = await t.post("issues", deleted(newId));
    expect(await none.json()).toEqual({ status: "ignored", reason: "no_issue_to_mark" });
    const gone = await t.stack.db
      .selectFrom("issues")
      .select("gone")
      .where("repository_github_id", "=", String(oldId))
      .executeTakeFirstOrThrow();
    expect(gone).toEqual({ gone: null });
    expect(await mine()).toEqual([{ repo_full_name: "octocat/pastebin-old", issue_number: 3 }]);
    expect((await repositoryRows(newId)).map((r) => r.full_name)).toEqual(["octocat/pastebin"]);
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

    // Signed, but naming it as GitHub never would: a full name that is not owner/name, a path. A
    // delivery is matched only by a repository GitHub could send (its id with valid names): these
    // name none, so they are not even stored.
    const mismatched = await t.post("repository", {
      ...body,
      repository: { ...body.repository, full_name: "octocat/weather-cli" },
    });
    expect(mismatched.status).toBe(202);
    expect(await mismatched.json()).toEqual({ status: "ignored", reason: "unknown_repository" });
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
