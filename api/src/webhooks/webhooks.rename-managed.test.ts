import { describe, expect, it } from "vitest";
import { renamedEvent, renameRows, webhookStack } from "../../test/webhooks.testkit";

const t = await webhookStack();
const { addIssue, repositoryRows, issueNames, countDeliveries } = renameRows(t);

describe("a repository of managed users (Enterprise Managed Users) renamed or transferred on GitHub", () => {
  /** Stored as a sync of a managed user's repository stores it: the login ends `_` and the short code. */
  async function storeManaged(id: number, owner: string, name: string) {
    await t.storeRepositoryAs(t.octocat.user._id, {
      id,
      owner: { login: owner },
      name,
      full_name: `${owner}/${name}`,
      description: null,
      private: true,
      fork: false,
      html_url: `https://github.com/${owner}/${name}`,
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
