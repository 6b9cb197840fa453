import { describe, expect, it } from "vitest";
import { issues } from "@fixloop/db";
import { seedRepository } from "@fixloop/testkit";
import { createTestStack } from "../../test/stack";

const stack = await createTestStack({ workers: ["fork", "sync"] });
const { app, db } = stack;
const json = async <T>(res: Response) => (await res.json()) as T;
const post = (path: string, headers: Record<string, string>, body: unknown) =>
  app.request(path, {
    method: "POST",
    headers: { ...headers, "content-type": "application/json" },
    body: JSON.stringify(body),
  });

/** hubot's public repository and one of its open issues, as GitHub lists them. */
async function hubotIssue() {
  const repos = (await (await fetch(`${stack.github.url}/users/hubot/repos`)).json()) as Array<{
    name: string;
    private: boolean;
  }>;
  const repo = repos.find((r) => !r.private);
  if (!repo) throw new Error("no public hubot repository seeded");
  const [issueNumber] = stack.github.control.addIssues("hubot", repo.name, [
    { title: "Import me", body: "Steps to reproduce", labels: ["bug"] },
  ]);
  if (!issueNumber) throw new Error("issue not added");
  return { owner: "hubot", repo: repo.name, issueNumber };
}

describe("import of a public issue", () => {
  it("previews the issue with the contribution checks", async () => {
    const { headers } = await stack.signIn("octocat");
    const ref = await hubotIssue();
    const res = await post("/api/contributions/fetch-issue", headers, ref);
    expect(res.status).toBe(200);
    const body = await json<Record<string, any>>(res);
    expect(body.repository.fullName).toBe(`hubot/${ref.repo}`);
    expect(body.issue).toMatchObject({
      title: "Import me",
      number: ref.issueNumber,
      labels: ["bug"],
      body: "Steps to reproduce",
    });
    expect(body.alreadyImported).toBe(false);
    expect(body.existingIssueId).toBeNull();
    expect(body.findings).toEqual([]);

    stack.github.control.setIssueState("hubot", ref.repo, ref.issueNumber, "closed");
    const closed = await json<Record<string, any>>(await post("/api/contributions/fetch-issue", headers, ref));
    expect(closed.findings.map((w: { code: string }) => w.code)).toEqual(["closed"]);
  });

  it("answers 404 for an issue that does not exist", async () => {
    const { headers } = await stack.signIn("octocat");
    const res = await post("/api/contributions/fetch-issue", headers, {
      owner: "hubot",
      repo: "does-not-exist",
      issueNumber: 1,
    });
    expect(res.status).toBe(404);
  });

  it("asks for repository authorization before forking", async () => {
    const { headers } = await stack.signIn("octocat");
    const ref = await hubotIssue();
    const res = await post("/api/contributions/import-issue", headers, ref);
    expect(res.status).toBe(403);
    expect((await json<{ error: { code: string } }>(res)).error.code).toBe("github.authorization_required");
  });

  it("forks once, stores the issue as imported, and importing again reuses both", async () => {
    const { headers, user } = await stack.signIn("octocat", { scopes: ["public_repo"] });
    const ref = await hubotIssue();
    const first = await post("/api/contributions/import-issue", headers, ref);
    expect(first.status).toBe(200);
    const a = await json<{ fork: { isNew: boolean; fullName: string }; issue: { _id: string } }>(first);
    expect(a.fork).toEqual({ isNew: true, fullName: `octocat/${ref.repo}` });
    // The fork is real: its git data exists on the stand-in.
    expect(stack.github.control.gitDir("octocat", ref.repo)).toBeTruthy();

    const again = await json<typeof a>(await post("/api/contributions/import-issue", headers, ref));
    expect(again.fork).toEqual({ isNew: false, fullName: a.fork.fullName });
    expect(again.issue._id).toBe(a.issue._id);

    // Another issue of the same repository reuses the fork.
    const [other] = stack.github.control.addIssues("hubot", ref.repo, [{ title: "Second one" }]);
    const second = await json<typeof a>(
      await post("/api/contributions/import-issue", headers, { ...ref, issueNumber: other }),
    );
    expect(second.fork).toEqual({ isNew: false, fullName: a.fork.fullName });
    expect(second.issue._id).not.toBe(a.issue._id);
    const forkCalls = stack.github.control.requestLog.filter((r) => r.method === "POST" && r.path.endsWith("/forks"));
    expect(forkCalls).toHaveLength(1);

    const got = await json<{ issue: Record<string, unknown> }>(
      await app.request(`/api/issues/${a.issue._id}`, { headers }),
    );
    expect(got.issue).toMatchObject({
      _id: a.issue._id,
      title: "Import me",
      issueNumber: ref.issueNumber,
      repoFullName: `hubot/${ref.repo}`,
      labels: ["bug"],
      status: "open",
      isImported: true,
      upstreamFullName: `hubot/${ref.repo}`,
      forkFullName: `octocat/${ref.repo}`,
    });
    const preview = await json<{ alreadyImported: boolean; existingIssueId: string }>(
      await post("/api/contributions/fetch-issue", headers, ref),
    );
    expect(preview).toMatchObject({ alreadyImported: true, existingIssueId: a.issue._id });
    const rows = await issues
      .selectIssues(db)
      .where("issues.user_id", "=", user._id)
      .where("issue_repo.full_name", "=", `hubot/${ref.repo}`)
      .execute();
    expect(rows).toHaveLength(2);
  });

  it("says alreadyImported when the import takes over a row of the issue the user already had", async () => {
    const { headers, user } = await stack.signIn("octocat", { scopes: ["public_repo"] });
    const ref = await hubotIssue();
    // Stored before under the repository's GitHub id (synced while the repository was in octocat's list).
    const { id: githubId } = await json<{ id: number }>(await fetch(`${stack.github.url}/repos/hubot/${ref.repo}`));
    const had = await db
      .insertInto("issues")
      .values({
        user_id: user._id,
        repository_github_id: await seedRepository(db, `hubot/${ref.repo}`, githubId),
        issue_number: ref.issueNumber,
        title: "Import me",
        status: "open",
        html_url: `https://github.com/hubot/${ref.repo}/issues/${ref.issueNumber}`,
      })
      .returning("id")
      .executeTakeFirstOrThrow();
    const res = await post("/api/contributions/import-issue", headers, ref);
    expect(res.status).toBe(200);
    expect(await json(res)).toMatchObject({ issue: { _id: had.id }, alreadyImported: true });
    expect(
      await db.selectFrom("issues").select(["is_imported"]).where("id", "=", had.id).executeTakeFirstOrThrow(),
    ).toEqual({ is_imported: true });
  });

  it("finds an imported issue again by its repository's GitHub id after the repository was renamed, no second row", async () => {
    const { headers, user } = await stack.signIn("octocat", { scopes: ["public_repo"] });
    await stack.github.control.createRepository("hubot", "notes-lib");
    const [issueNumber = 0] = stack.github.control.addIssues("hubot", "notes-lib", [{ title: "Notes lose order" }]);
    const first = await post("/api/contributions/import-issue", headers, {
      owner: "hubot",
      repo: "notes-lib",
      issueNumber,
    });
    expect(first.status).toBe(200);
    const a = await json<{
      fork: { isNew: boolean; fullName: string };
      issue: { _id: string };
      alreadyImported: boolean;
    }>(first);
    expect(a.fork).toEqual({ isNew: true, fullName: "octocat/notes-lib" });
    expect(a.alreadyImported).toBe(false);

    // The upstream is renamed on GitHub (no webhook reaches Fixloop): the new name is not stored yet.
    await stack.github.control.renameRepository("hubot", "notes-lib", "notes-core");
    const ref = { owner: "hubot", repo: "notes-core", issueNumber };
    const again = await post("/api/contributions/import-issue", headers, ref);
    expect(again.status).toBe(200);
    const b = await json<typeof a>(again);
    expect(b.issue._id).toBe(a.issue._id);
    expect(b.fork).toEqual({ isNew: false, fullName: "octocat/notes-lib" });
    // The fork job found the earlier import by the repository's GitHub id: the answer says so.
    expect(b.alreadyImported).toBe(true);
    const preview = await json<{ repository: { fullName: string }; alreadyImported: boolean; existingIssueId: string }>(
      await post("/api/contributions/fetch-issue", headers, ref),
    );
    expect(preview).toMatchObject({
      repository: { fullName: "hubot/notes-core" },
      alreadyImported: true,
      existingIssueId: a.issue._id,
    });
    // One row. Its repository's one row keeps the name Fixloop last heard (a webhook or sync moves it).
    const rows = await issues
      .selectIssues(db)
      .clearSelect()
      .select(["issues.id", "issue_repo.full_name as repo_full_name"])
      .where("issues.user_id", "=", user._id)
      .where("issues.issue_number", "=", issueNumber)
      .where("issues.title", "=", "Notes lose order")
      .execute();
    expect(rows).toEqual([{ id: a.issue._id, repo_full_name: "hubot/notes-lib" }]);
  });
});
