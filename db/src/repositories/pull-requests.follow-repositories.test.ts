import { describe, expect, it } from "vitest";
import { createTestDatabase, insertPullRequest, insertUser, seedRepository, seedSolution } from "../../test/testing";
import * as githubRepositories from "./github-repositories.repository";
import * as pullRequestEvents from "./pull-request-events.repository";
import * as pullRequests from "./pull-requests.repository";

const { db } = await createTestDatabase();

let ids = 0;
const githubId = () => 9_100_000 + ++ids;

describe("a pull request's repositories found renamed when a revision is pushed", () => {
  async function opened(base: string, head: string, number = 12) {
    const userId = await insertUser(db);
    const seeded = await seedSolution(db, { userId, repoFullName: base, issueNumber: 5, files: [] });
    return insertPullRequest(db, {
      userId,
      solutionId: seeded.solutionId,
      issueId: seeded.issueId,
      base,
      head,
      number,
    });
  }
  const names = async (id: string) => {
    const pr = await pullRequests.selectPullRequests(db).where("pull_requests.id", "=", id).executeTakeFirstOrThrow();
    return { repo_full_name: pr.repo_full_name, head_repo_full_name: pr.head_repo_full_name, html_url: pr.html_url };
  };
  const seen = (githubId: string, fullName: string) => ({ githubId: Number(githubId), fullName });

  it("takes the new names for every user's pull requests at once, its page on the host it was stored with", async () => {
    const n = githubId();
    await githubRepositories.upsert(db, {
      github_id: n,
      full_name: `acme/lib-${n}`,
      html_url: `https://ghe.example.com/acme/lib-${n}`,
    });
    const pr = await opened(`acme/lib-${n}`, `hubot/lib-${n}`);
    // Another user's pull request in the same repository, from the same repository.
    const sameBase = await opened(`acme/lib-${n}`, `acme/lib-${n}`, 13);
    const other = await opened(`acme/app-${n}`, `acme/app-${n}`);
    await pullRequests.followRepositories(db, [
      seen(pr.base_github_id, `acme/lib-${n}-next`),
      seen(pr.head_github_id, `hubot/fork-${n}`),
    ]);
    expect(await names(pr.id)).toEqual({
      repo_full_name: `acme/lib-${n}-next`,
      head_repo_full_name: `hubot/fork-${n}`,
      html_url: `https://ghe.example.com/acme/lib-${n}-next/pull/12`,
    });
    expect(await names(sameBase.id)).toEqual({
      repo_full_name: `acme/lib-${n}-next`,
      head_repo_full_name: `acme/lib-${n}-next`,
      html_url: `https://ghe.example.com/acme/lib-${n}-next/pull/13`,
    });
    expect(await names(other.id)).toEqual({
      repo_full_name: `acme/app-${n}`,
      head_repo_full_name: `acme/app-${n}`,
      html_url: `https://github.com/acme/app-${n}/pull/12`,
    });
    // One row of the repository took the name: nothing else was stored.
    const rows = await db
      .selectFrom("github_repositories")
      .select(["github_id", "full_name"])
      .where("full_name", "like", `acme/lib-${n}%`)
      .execute();
    expect(rows).toEqual([{ github_id: String(pr.base_github_id), full_name: `acme/lib-${n}-next` }]);
  });

  it("keeps its names when GitHub's answer names no owner/name", async () => {
    const n = githubId();
    const pr = await opened(`acme/lib-${n}`, `acme/lib-${n}`);
    const before = await names(pr.id);
    for (const to of ["acme/..", "evil/lib/../../x", "acme/lib?x=1", ""])
      await pullRequests.followRepositories(db, [seen(pr.base_github_id, to)]);
    expect(await names(pr.id)).toEqual(before);
  });

  it("keeps its own number when renamed onto a name another repository left: each is found by its repository's id", async () => {
    const n = githubId();
    const pr = await opened(`acme/lib-${n}`, `acme/lib-${n}`);
    // Another repository had the name before, with a pull request #12 Fixloop recorded; it moves on.
    const holder = await opened(`acme/web-${n}`, `acme/web-${n}`);
    await pullRequests.followRepositories(db, [seen(holder.base_github_id, `acme/web-${n}-old`)]);
    await pullRequests.followRepositories(db, [seen(pr.base_github_id, `acme/web-${n}`)]);
    expect(await names(pr.id)).toMatchObject({ repo_full_name: `acme/web-${n}` });
    expect(await names(holder.id)).toMatchObject({ repo_full_name: `acme/web-${n}-old` });
    expect((await pullRequestEvents.findPullRequest(db, pr.base_github_id, 12))?.id).toBe(pr.id);
    expect((await pullRequestEvents.findPullRequest(db, holder.base_github_id, 12))?.id).toBe(holder.id);
  });

  it("is not moved by a rename of another repository that holds the same name", async () => {
    const n = githubId();
    const pr = await opened(`acme/lib-${n}`, `acme/lib-${n}`);
    // A repository of the same name GitHub showed under another id (the name moved between them).
    const taker = await seedRepository(db, `acme/lib-${n}`, githubId());
    await pullRequests.followRepositories(db, [seen(taker, `acme/lib-${n}-taker`)]);
    expect(await names(pr.id)).toMatchObject({ repo_full_name: `acme/lib-${n}` });
  });
});
