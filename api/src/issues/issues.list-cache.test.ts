import { sql } from "kysely";
import { afterAll, describe, expect, it } from "vitest";
import { createDb, issues } from "@fixloop/db";
import { seedRepository } from "@fixloop/testkit";
import { createTestStack } from "../../test/stack";

/**
 * The API keeps each user's serialized issue list and sends it again while the list's version,
 * bumped by Postgres triggers, is unchanged. These tests write the way other processes do (a worker,
 * a webhook, a sync: another connection pool, no call into the API) and read right after.
 */
const stack = await createTestStack();
const { app } = stack;
const worker = createDb(stack.deps.env.DATABASE_URL, { max: 2 });
/** The GitHub id octocat/cache is stored under. */
const CACHE = await seedRepository(stack.db, "octocat/cache");

afterAll(async () => {
  await worker.destroy();
});

interface Listed {
  _id: string;
  title: string;
  status: string;
  openPullRequest: { number: number } | null;
  awaitingReview: { solutionId: string } | null;
  startedByLabel: string | null;
}
interface List {
  issues: Listed[];
  counts: { open: number; closed: number; all: number; completed: number } | null;
}

async function list(headers: Record<string, string>, query = "") {
  const res = await app.request(`/api/issues${query}`, { headers });
  expect(res.status).toBe(200);
  return { body: (await res.json()) as List, etag: res.headers.get("etag") ?? "" };
}

async function newIssue(userId: string, n: number): Promise<string> {
  const { rows } = await sql<{ id: string }>`
    insert into issues (user_id, repository_github_id, issue_number, title, html_url)
    values (${userId}, ${CACHE}::bigint, ${n}, ${`issue ${n}`}, ${`https://github.com/octocat/cache/issues/${n}`})
    returning id`.execute(worker);
  return rows[0]?.id ?? "";
}

describe("the kept issue list", () => {
  it("shows every committed write to a table it reads on the very next read", async () => {
    const { headers, user } = await stack.signIn("octocat");
    const byId = async (id: string) => (await list(headers)).body.issues.find((i) => i._id === id);

    expect((await list(headers)).body.issues).toEqual([]);
    const id = await newIssue(user._id, 1);
    expect((await byId(id))?.title).toBe("issue 1");
    await list(headers);

    await sql`update issues set title = 'renamed' where id = ${id}`.execute(worker);
    expect((await byId(id))?.title).toBe("renamed");

    const { rows: sol } = await sql<{ id: string }>`
      insert into solutions (user_id, issue_id, status, analysis, proposed_solution, ai_model)
      values (${user._id}, ${id}, 'pending', 'a', 'p', 'm') returning id`.execute(worker);
    const solutionId = sol[0]?.id ?? "";
    expect((await byId(id))?.awaitingReview?.solutionId).toBe(solutionId);

    await sql`
      insert into pull_requests (user_id, solution_id, issue_id, base_github_id, head_github_id, pr_number, title,
                                 branch_name, base_branch, status, html_url)
      values (${user._id}, ${solutionId}, ${id}, ${CACHE}::bigint, ${CACHE}::bigint, 7, 't', 'fixloop/x', 'main', 'open',
              'https://github.com/octocat/cache/pull/7')`.execute(worker);
    expect((await byId(id))?.openPullRequest?.number).toBe(7);

    await sql`
      insert into solve_runs (user_id, issue_id, model_id, status, input)
      values (${user._id}, ${id}, 'm', 'completed', ${JSON.stringify({ trigger: "label", triggerLabel: "fixloop" })}::jsonb)`.execute(
      worker,
    );
    expect((await byId(id))?.startedByLabel).toBe("fixloop");

    await sql`update solutions set status = 'approved' where id = ${solutionId}`.execute(worker);
    expect((await byId(id))?.awaitingReview).toBeNull();
    await sql`delete from pull_requests where issue_id = ${id}`.execute(worker);
    expect((await byId(id))?.openPullRequest).toBeNull();

    await sql`update issues set status = 'solved' where id = ${id}`.execute(worker);
    expect((await list(headers)).body.counts).toEqual({ open: 0, closed: 1, all: 1, completed: 1 });
    expect((await list(headers, "?tab=open")).body.issues).toEqual([]);
    await sql`delete from issues where id = ${id}`.execute(worker);
    expect((await list(headers)).body.issues).toEqual([]);
  });

  it("answers 304 to the ETag of an unchanged list, and 200 with a new ETag once it changed", async () => {
    const { headers, user } = await stack.signIn("hubot");
    await newIssue(user._id, 2);
    const first = await list(headers);
    expect(first.etag).toMatch(/^"[\w-]+"$/);
    const again = await app.request("/api/issues", { headers: { ...headers, "if-none-match": first.etag } });
    expect(again.status).toBe(304);
    expect(await again.text()).toBe("");
    expect(again.headers.get("etag")).toBe(first.etag);
    expect(again.headers.get("cache-control")).toBe("private, no-cache");

    // Each page and tab is its own representation.
    const tab = await app.request("/api/issues?tab=closed", { headers: { ...headers, "if-none-match": first.etag } });
    expect(tab.status).toBe(200);

    await newIssue(user._id, 3);
    const changed = await app.request("/api/issues", { headers: { ...headers, "if-none-match": first.etag } });
    expect(changed.status).toBe(200);
    expect(changed.headers.get("etag")).not.toBe(first.etag);
    expect(((await changed.json()) as List).issues).toHaveLength(2);
  });

  it("never shows a write before it commits, and shows it as soon as it has", async () => {
    const { headers, user } = await stack.signIn("octocat");
    const before = (await list(headers)).body.issues.length;
    let id = "";
    await worker.transaction().execute(async (trx) => {
      const { rows } = await sql<{ id: string }>`
        insert into issues (user_id, repository_github_id, issue_number, title, html_url)
        values (${user._id}, ${CACHE}::bigint, 40, 'in flight', 'https://github.com/octocat/cache/issues/40')
        returning id`.execute(trx);
      id = rows[0]?.id ?? "";
      expect((await list(headers)).body.issues).toHaveLength(before);
    });
    expect((await list(headers)).body.issues.map((i) => i._id)).toContain(id);
  });

  it("keeps a user's version when a run only progresses or another user writes", async () => {
    const { user } = await stack.signIn("octocat");
    const { user: other } = await stack.signIn("hubot");
    const id = await newIssue(user._id, 50);
    const { rows } = await sql<{ id: string }>`
      insert into solve_runs (user_id, issue_id, model_id, status) values (${user._id}, ${id}, 'm', 'queued')
      returning id`.execute(worker);
    const runId = rows[0]?.id ?? "";
    const v = await issues.listVersion(worker, user._id);
    await sql`update solve_runs set status = 'running', current_step = 'analyzing', tokens_in = 10 where id = ${runId}`.execute(
      worker,
    );
    await newIssue(other._id, 51);
    expect(await issues.listVersion(worker, user._id)).toBe(v);
    await sql`update solve_runs set input = '{"trigger":"label"}'::jsonb where id = ${runId}`.execute(worker);
    expect(BigInt(await issues.listVersion(worker, user._id))).toBeGreaterThan(BigInt(v));
  });
});

describe("the kept issue list after a TRUNCATE", () => {
  it("is read again, though a TRUNCATE fires no row trigger", async () => {
    const { headers, user } = await stack.signIn("hubot");
    const id = await newIssue(user._id, 60);
    const { rows } = await sql<{ id: string }>`
      insert into solutions (user_id, issue_id, status, analysis, proposed_solution, ai_model)
      values (${user._id}, ${id}, 'approved', 'a', 'p', 'm') returning id`.execute(worker);
    await sql`
      insert into pull_requests (user_id, solution_id, issue_id, base_github_id, head_github_id, pr_number, title,
                                 branch_name, base_branch, status, html_url)
      values (${user._id}, ${rows[0]?.id ?? ""}, ${id}, ${CACHE}::bigint, ${CACHE}::bigint, 8, 't', 'fixloop/y', 'main',
              'open', 'https://github.com/octocat/cache/pull/8')`.execute(worker);
    const shown = async () => (await list(headers)).body.issues.find((i) => i._id === id)?.openPullRequest ?? null;
    expect((await shown())?.number).toBe(8);
    await sql`truncate pull_requests cascade`.execute(worker);
    expect(await shown()).toBeNull();
  });
});
