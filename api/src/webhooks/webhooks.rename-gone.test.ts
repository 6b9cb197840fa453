import { describe, expect, it } from "vitest";
import { issues, repositories } from "@fixloop/db";
import { issueColumns, type GithubIssue } from "@fixloop/runtime";
import { insertRun } from "@fixloop/testkit";
import { renameRows, webhookStack } from "../../test/webhooks.testkit";

const t = await webhookStack();
const hubot = await t.stack.signIn("hubot", { scopes: ["public_repo"] });
const { issueNames } = renameRows(t);

describe("an issue deleted on GitHub after its repository was renamed", () => {
  const issueRow = (id: string) =>
    t.stack.db.selectFrom("issues").select(["status", "gone"]).where("id", "=", id).executeTakeFirstOrThrow();
  const runRow = (id: string) =>
    t.stack.db.selectFrom("solve_runs").select(["status", "error_code"]).where("id", "=", id).executeTakeFirstOrThrow();
  const queuedRun = async (userId: string, issueId: string) =>
    (await insertRun(t.stack.db, { user_id: userId, issue_id: issueId, kind: "solve", status: "queued" })).id;

  /**
   * octocat's repository octocat/`name` with issue #n, stored for octocat as a sync stores it and
   * imported by hubot by URL, each row with a queued run; then renamed to octocat/`name`-next, which
   * both rows show at once. Also hubot's row of #n of another repository (another id) that is known
   * under the new name too (it had it before, say): another issue.
   */
  async function importedThenRenamed(name: string) {
    const renamed = `${name}-next`;
    await t.control.createRepository("octocat", name);
    const [n = 0] = t.control.addIssues("octocat", name, [{ title: "Notes lose their order" }]);
    const found = (await t.gh("octocat").rest.issues.get({ owner: "octocat", repo: name, issue_number: n }))
      .data as GithubIssue;
    const githubId = await t.storeRepository(t.octocat.user._id, "octocat", name);
    const repo = await repositories
      .selectWithGithub(t.stack.db)
      .where("repositories.user_id", "=", t.octocat.user._id)
      .where("repositories.github_id", "=", String(githubId))
      .executeTakeFirstOrThrow();
    await issues.upsertSynced(t.stack.db, t.octocat.user._id, { id: repo.id, githubId }, [issueColumns(found)]);
    const owners = await t.stack.db
      .selectFrom("issues")
      .select("id")
      .where("user_id", "=", t.octocat.user._id)
      .where("repository_github_id", "=", String(githubId))
      .executeTakeFirstOrThrow();
    const imported = await issues.recordImported(
      t.stack.db,
      hubot.user._id,
      {
        upstream: { github_id: githubId, full_name: `octocat/${name}` },
        fork: { github_id: githubId + 5_000_000, full_name: `hubot/${name}` },
      },
      issueColumns(found),
    );
    const sent = (await t.control.webhookDeliveries()).length;
    await t.control.renameRepository("octocat", name, renamed);
    expect((await t.control.webhookDeliveries()).slice(sent).map((d) => [d.event, d.status])).toEqual([
      ["repository", 200],
    ]);
    // One update of the repository's row: the owner's and the importer's rows both show the new name.
    for (const user of [t.octocat.user._id, hubot.user._id])
      expect(await issueNames(user)).toContainEqual({ repo_full_name: `octocat/${renamed}`, issue_number: n });
    const other = await issues.recordImported(
      t.stack.db,
      hubot.user._id,
      {
        upstream: { github_id: githubId + 7_000_000, full_name: `octocat/${renamed}` },
        fork: { github_id: githubId + 8_000_000, full_name: `hubot/${renamed}` },
      },
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

  it("is marked gone, its runs stopped, for the owner and the importer, by its repository's id", async () => {
    const s = await importedThenRenamed("notes-app");
    const sent = (await t.control.webhookDeliveries()).length;
    t.control.deleteIssue("octocat", s.renamed, s.n);
    const delivered = (await t.control.webhookDeliveries()).slice(sent);
    expect(delivered.map((d) => [d.event, d.status])).toEqual([["issues", 200]]);

    for (const row of [s.owners, s.imported]) {
      expect(await issueRow(row.issue)).toEqual({ status: "closed", gone: "deleted" });
      expect(await runRow(row.run)).toEqual({ status: "cancelled", error_code: "issue.gone" });
    }
    // Same name and number, another repository id: left alone, its run still queued.
    expect(await issueRow(s.other.issue)).toMatchObject({ gone: null });
    expect(await runRow(s.other.run)).toEqual({ status: "queued", error_code: null });
  });

  it("is marked gone for the importer too when the owner's solve start finds it deleted", async () => {
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
    // Same name and number, another repository id: left alone, its run still queued.
    expect(await issueRow(s.other.issue)).toMatchObject({ gone: null });
    expect(await runRow(s.other.run)).toEqual({ status: "queued", error_code: null });
  });

  it("marks nothing for a signed delivery of another number of the repository", async () => {
    const s = await importedThenRenamed("diary-app");
    const repo = (await t.gh("octocat").rest.repos.get({ owner: "octocat", repo: s.renamed })).data;
    const before = await Promise.all([s.owners, s.imported, s.other].map((r) => issueRow(r.issue)));
    // A repository Fixloop knows, the issue's id, but a number none of its rows has.
    for (const issue of [
      { id: s.githubId, number: s.n + 1 },
      { id: s.githubId + 1, number: s.n + 1 },
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
