import { describe, expect, it } from "vitest";
import { repositories } from "@fixloop/db";
import { insertPullRequest, seedSolution } from "@fixloop/testkit";
import { webhookStack } from "../../test/webhooks.testkit";

// Webhooks on, and a sync worker for the pull-request and repository syncs.
const t = await webhookStack({ workers: ["sync"] });
const hubot = await t.stack.signIn("hubot", { scopes: ["public_repo"] });

/** A new repository octocat/`name` on the stand-in, stored for octocat as a sync stores it. */
async function createStored(name: string) {
  await t.control.createRepository("octocat", name);
  await t.storeRepository(t.octocat.user._id, "octocat", name);
  return { owner: "octocat", repo: name };
}

/** The pull requests as GET /api/prs lists them to `headers`' user, by id. */
async function listed(headers: Record<string, string>) {
  const res = await t.stack.app.request("/api/prs", { headers });
  expect(res.status).toBe(200);
  const { pullRequests } = (await res.json()) as { pullRequests: Array<Record<string, unknown>> };
  return new Map(pullRequests.map((p) => [p._id, p]));
}

/** GitHub's page of pull request `number` of octocat/`repo`, as the stand-in answers it. */
const pageOnGithub = async (repo: string, number: number) =>
  (await t.gh("octocat").rest.pulls.get({ owner: "octocat", repo, pull_number: number })).data.html_url;

/** hubot's stored pull request `number` of `repoFullName` (a repository that had that name before). */
async function storeHolder(repoFullName: string, number: number) {
  const { solutionId, issueId } = await seedSolution(t.stack.db, {
    userId: hubot.user._id,
    repoFullName,
    issueNumber: 9,
    files: [],
  });
  return insertPullRequest(t.stack.db, {
    userId: hubot.user._id,
    solutionId,
    issueId,
    base: repoFullName,
    head: `hubot/${repoFullName.split("/")[1] ?? ""}`,
    number,
    issueNumber: 9,
  });
}

const deliveredSince = async (sent: number) =>
  (await t.control.webhookDeliveries()).slice(sent).map((d) => [d.event, d.status]);

describe("a repository renamed on GitHub, its stored pull requests", () => {
  it("are listed under the new names and link to their page under the new name once the rename is delivered", async () => {
    const repo = await createStored("ledger");
    const pr = await t.openFixloopPull(repo);
    const sent = (await t.control.webhookDeliveries()).length;
    await t.control.renameRepository("octocat", "ledger", "ledger-book");
    expect(await deliveredSince(sent)).toEqual([["repository", 200]]);

    const page = await pageOnGithub("ledger-book", pr.number);
    expect(page).toMatch(/\/octocat\/ledger-book\/pull\/\d+$/);
    expect((await listed(t.octocat.headers)).get(pr.id)).toMatchObject({
      repoFullName: "octocat/ledger-book",
      headRepoFullName: "octocat/ledger-book",
      htmlUrl: page,
    });
  });

  it("all move, and one whose number another repository's stored pull request has under the new name stays apart", async () => {
    const repo = await createStored("abacus");
    const held = await t.openFixloopPull(repo);
    const free = await t.openFixloopPull(repo);
    // hubot's pull request #held of another repository, known under the name octocat/abacus-next (it had it before).
    const holder = await storeHolder("octocat/abacus-next", held.number);
    const hubotsBefore = await listed(hubot.headers);

    const sent = (await t.control.webhookDeliveries()).length;
    await t.control.renameRepository("octocat", "abacus", "abacus-next");
    expect(await deliveredSince(sent)).toEqual([["repository", 200]]);

    const after = await listed(t.octocat.headers);
    for (const pr of [held, free])
      expect(after.get(pr.id)).toMatchObject({
        repoFullName: "octocat/abacus-next",
        headRepoFullName: "octocat/abacus-next",
        htmlUrl: await pageOnGithub("abacus-next", pr.number),
      });
    expect(await listed(hubot.headers)).toEqual(hubotsBefore);
    expect(hubotsBefore.get(holder.id)).toMatchObject({ repoFullName: "octocat/abacus-next", status: "open" });
    expect(
      await repositories
        .selectWithGithub(t.stack.db)
        .clearSelect()
        .select("g.full_name")
        .where("repositories.user_id", "=", t.octocat.user._id)
        .where("g.name", "like", "abacus%")
        .execute(),
    ).toEqual([{ full_name: "octocat/abacus-next" }]);

    // The repository's next deliveries apply to its own pull requests: the number both have too.
    const next = (await t.control.webhookDeliveries()).length;
    await t.gh("octocat").rest.pulls.update({
      owner: "octocat",
      repo: "abacus-next",
      pull_number: held.number,
      state: "closed",
    });
    expect(await deliveredSince(next)).toEqual([["pull_request", 200]]);
    expect((await listed(t.octocat.headers)).get(held.id)).toMatchObject({ status: "closed" });
    expect((await listed(hubot.headers)).get(holder.id)).toMatchObject({ status: "open" });
  });

  it("take the current names and page from the pull-request sync when the rename was never delivered", async () => {
    const repo = await createStored("almanac");
    const pr = await t.openFixloopPull(repo);
    t.control.setWebhook(null);
    await t.control.renameRepository("octocat", "almanac", "almanac-two");
    t.control.setWebhook(t.hook);
    expect((await listed(t.octocat.headers)).get(pr.id)).toMatchObject({ repoFullName: "octocat/almanac" });

    const res = await t.stack.app.request("/api/prs/sync", { method: "POST", headers: t.octocat.headers });
    expect(res.status).toBe(200);
    const page = await pageOnGithub("almanac-two", pr.number);
    expect(page).toMatch(/\/octocat\/almanac-two\/pull\/\d+$/);
    expect((await listed(t.octocat.headers)).get(pr.id)).toMatchObject({
      repoFullName: "octocat/almanac-two",
      headRepoFullName: "octocat/almanac-two",
      htmlUrl: page,
      status: "open",
    });
  });

  it("move in the repository sync when the rename was never delivered, apart from another repository's of that name", async () => {
    const repo = await createStored("quill");
    const held = await t.openFixloopPull(repo);
    const free = await t.openFixloopPull(repo);
    const holder = await storeHolder("octocat/quill-pen", held.number);
    const hubotsBefore = await listed(hubot.headers);
    t.control.setWebhook(null);
    await t.control.renameRepository("octocat", "quill", "quill-pen");
    t.control.setWebhook(t.hook);

    const res = await t.stack.app.request("/api/github/repositories", { headers: t.octocat.headers });
    expect(res.status).toBe(200);
    const { repositories: listedRepos } = (await res.json()) as { repositories: Array<{ fullName: string }> };
    expect(listedRepos.map((r) => r.fullName).filter((n) => n.startsWith("octocat/quill"))).toEqual([
      "octocat/quill-pen",
    ]);
    const after = await listed(t.octocat.headers);
    for (const pr of [held, free])
      expect(after.get(pr.id)).toMatchObject({
        repoFullName: "octocat/quill-pen",
        headRepoFullName: "octocat/quill-pen",
        htmlUrl: await pageOnGithub("quill-pen", pr.number),
      });
    expect(await listed(hubot.headers)).toEqual(hubotsBefore);
    expect(hubotsBefore.get(holder.id)).toMatchObject({ repoFullName: "octocat/quill-pen" });
  });
});
