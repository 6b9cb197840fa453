import { Kysely, PostgresDialect, sql, type CompiledQuery } from "kysely";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "../schema";
import { StorableTextPlugin } from "../storable.plugin";
import { createTestDatabase } from "../../test/testing";
import * as issues from "./issues.repository";

/**
 * The issue list reads each issue's newest open pull request, pending solution and run. Each of
 * those lookups must reach its rows through an index: a sequential scan of solve_runs, solutions
 * or pull_requests per issue made the list cost seconds at 50 clients once a user had many runs.
 */
const { url } = await createTestDatabase();
const pool = new pg.Pool({ connectionString: url, max: 2 });
const sent: CompiledQuery[] = [];
const db = new Kysely<Database>({
  dialect: new PostgresDialect({ pool }),
  plugins: [new StorableTextPlugin()],
  log: (e) => {
    if (e.level === "query") sent.push(e.query);
  },
});

interface PlanNode {
  "Node Type": string;
  "Relation Name"?: string;
  "Actual Loops"?: number;
  Plans?: PlanNode[];
}

const PER_ISSUE = ["solve_runs", "solutions", "pull_requests"];

function nodes(n: PlanNode): PlanNode[] {
  return [n, ...(n.Plans ?? []).flatMap(nodes)];
}

/** Users with the bench's sizes: 100 issues, 1,000 runs, 200 solutions (40 of them with an open pull request) each. */
async function seed(users: number): Promise<string[]> {
  const ids: string[] = [];
  await sql`
    insert into github_repositories (github_id, owner, name, full_name, html_url)
    values (4242, 'hubot', 'markdown-lint', 'hubot/markdown-lint', 'https://github.com/hubot/markdown-lint')`.execute(
    db,
  );
  for (let u = 0; u < users; u++) {
    const { rows } = await sql<{ id: string }>`
      insert into users (github_id, username) values (${900_000 + u}, ${`plan-user-${u}`}) returning id`.execute(db);
    const userId = rows[0]?.id ?? "";
    ids.push(userId);
    await sql`
      insert into github_repositories (github_id, owner, name, full_name, html_url)
      values (${5_000 + u}, 'plan', ${`repo-${u}`}, ${`plan/repo-${u}`}, ${`https://github.com/plan/repo-${u}`})`.execute(
      db,
    );
    await sql`insert into repositories (user_id, github_id) values (${userId}, 4242)`.execute(db);
    await sql`
      insert into issues (user_id, repository_github_id, issue_number, title, html_url)
      select ${userId}, 4242, n, 'issue ' || n, 'https://github.com/hubot/markdown-lint/issues/' || n
      from generate_series(1, 100) n`.execute(db);
    await sql`
      insert into solve_runs (user_id, issue_id, model_id, status, input)
      select ${userId}, i.id, 'plan', 'completed',
             jsonb_build_object('trigger', case when r % 2 = 0 then 'label' else 'manual' end, 'triggerLabel', 'fixloop')
      from issues i cross join generate_series(1, 10) r where i.user_id = ${userId}`.execute(db);
    await sql`
      insert into solutions (user_id, issue_id, status, analysis, proposed_solution, ai_model)
      select ${userId}, i.id, case when s = 1 then 'pending' else 'approved' end, 'a', 'p', 'plan'
      from issues i cross join generate_series(1, 2) s where i.user_id = ${userId}`.execute(db);
    await sql`
      insert into pull_requests (user_id, solution_id, issue_id, base_github_id, head_github_id, pr_number, title,
                                 branch_name, base_branch, status, html_url)
      select ${userId}, s.id, s.issue_id, ${5_000 + u}, ${5_000 + u}, row_number() over (), 't',
             'fixloop/' || s.id, 'main', 'open', 'https://github.com/hubot/markdown-lint/pull/1'
      from solutions s where s.user_id = ${userId} and s.status = 'approved' limit 40`.execute(db);
  }
  await sql`analyze`.execute(db);
  return ids;
}

let me = "";

beforeAll(async () => {
  const users = await seed(20);
  me = users[0] ?? "";
});

afterAll(async () => {
  await db.destroy();
});

async function planOf(query: CompiledQuery): Promise<PlanNode[]> {
  const c = await pool.connect();
  try {
    const { rows } = await c.query<{ "QUERY PLAN": [{ Plan: PlanNode }] }>(
      `explain (analyze, format json) ${query.sql}`,
      [...query.parameters],
    );
    const plan = rows[0]?.["QUERY PLAN"][0];
    if (!plan) throw new Error("no plan");
    return nodes(plan.Plan);
  } finally {
    c.release();
  }
}

function expectIndexedLookups(all: PlanNode[]) {
  const seqScans = all.filter((n) => n["Node Type"] === "Seq Scan" && PER_ISSUE.includes(n["Relation Name"] ?? ""));
  expect(seqScans.map((n) => n["Relation Name"])).toEqual([]);
  for (const table of PER_ISSUE)
    expect(all.some((n) => n["Relation Name"] === table && /Index/.test(n["Node Type"]))).toBe(true);
}

describe("the issue list's plan", () => {
  it("reads each issue's pull request, pending solution and newest run through an index", async () => {
    sent.length = 0;
    const listed = await issues.listOwned(db, me);
    expect(listed).toHaveLength(100);
    expect(listed.every((i) => i.review_solution_id !== null)).toBe(true);
    expect(listed.filter((i) => i.open_pr_url !== null).length).toBe(40);
    const query = sent.at(-1);
    if (!query) throw new Error("listOwned sent no query");
    expectIndexedLookups(await planOf(query));
  });

  it("does the same for the pages GET /api/issues reads, first, later and of the Open tab", async () => {
    const first = await issues.listOwnedPage(db, me, { limit: 30 });
    expect(first.issues).toHaveLength(30);
    const after = first.next ?? undefined;
    expect(after).toBeDefined();
    for (const o of [{ limit: 100 }, { limit: 30, after }, { limit: 100, tab: "open" as const }]) {
      sent.length = 0;
      await issues.listOwnedPage(db, me, o);
      const query = sent.at(-1);
      if (!query) throw new Error("listOwnedPage sent no query");
      expectIndexedLookups(await planOf(query));
    }
  });

  it("counts the tabs without reading the solutions of other issues", async () => {
    sent.length = 0;
    expect(await issues.countOwned(db, me)).toEqual({ all: 100, open: 100, closed: 0, completed: 0 });
    const query = sent.at(-1);
    if (!query) throw new Error("countOwned sent no query");
    const all = await planOf(query);
    expect(all.filter((n) => n["Node Type"] === "Seq Scan").map((n) => n["Relation Name"])).toEqual([]);
  });
});
