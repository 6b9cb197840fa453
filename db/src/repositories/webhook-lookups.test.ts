import { Kysely, PostgresDialect, type CompiledQuery } from "kysely";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "../schema";
import { StorableTextPlugin } from "../storable.plugin";
import { createTestDatabase } from "../../test/testing";
import * as issues from "./issues.repository";
import * as labelTriggers from "./label-triggers.repository";
import * as pullRequestEvents from "./pull-request-events.repository";
import * as runs from "./runs.reads";

/**
 * A GitHub delivery is matched against every user's rows. Each lookup it makes must reach the rows
 * it wants through an index: with the tables holding many users' rows, Postgres must plan neither a
 * sequential scan of them nor a walk through a whole index.
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

const GROWING = ["issues", "pull_requests", "repositories", "github_repositories"];

interface PlanNode {
  "Node Type": string;
  "Relation Name"?: string;
  "Index Name"?: string;
  "Index Cond"?: string;
  Plans?: PlanNode[];
}

/** Each index of the growing tables: its table and its first key, as Postgres writes them. */
async function leadingKeys(c: pg.PoolClient): Promise<Map<string, { table: string; first: string }>> {
  const r = await c.query<{ index: string; table: string; first: string }>(
    `select ci.relname as index, ct.relname as table, pg_get_indexdef(i.indexrelid, 1, true) as first
       from pg_index i join pg_class ci on ci.oid = i.indexrelid join pg_class ct on ct.oid = i.indrelid
      where ct.relname = any($1)`,
    [GROWING],
  );
  return new Map(r.rows.map((x) => [x.index, { table: x.table, first: x.first }]));
}

/**
 * The plan's reads of a growing table that are not an index lookup: a sequential scan, or an
 * index scan whose condition leaves out the index's first key (a walk through the whole index).
 */
function wholeReads(node: PlanNode, keys: Map<string, { table: string; first: string }>): string[] {
  const own: string[] = [];
  if (node["Node Type"] === "Seq Scan" && GROWING.includes(node["Relation Name"] ?? ""))
    own.push(node["Relation Name"]!);
  const index = node["Index Name"] && keys.get(node["Index Name"]);
  if (index) {
    const cond = (node["Index Cond"] ?? "").replace(/\b\w+\./g, "");
    if (!cond.includes(index.first)) own.push(`${index.table} (all of ${node["Index Name"]})`);
  }
  return [...own, ...(node.Plans ?? []).flatMap((p) => wholeReads(p, keys))];
}

/**
 * 2,000 GitHub repositories and 200 forks; 200 users with 25 of the repositories each (some shared),
 * 100 issues and 25 pull requests each from their own fork; and fresh statistics.
 */
async function seed(c: pg.PoolClient): Promise<void> {
  await c.query(
    `insert into users (github_id, username) select 700000 + g, 'user' || g from generate_series(1, 200) g`,
  );
  await c.query(
    `insert into github_repositories (github_id, owner, name, full_name, html_url)
     select 900000 + r, 'org' || (r % 7), 'repo' || r, 'org' || (r % 7) || '/repo' || r, 'https://github.com/x/y'
       from generate_series(1, 2000) r
     union all
     select 800000 + g, 'fork' || g, 'repo', 'fork' || g || '/repo', 'https://github.com/x/y'
       from generate_series(1, 200) g`,
  );
  // User g (from 0) has repositories 900001 + (10g + r) mod 2000, r < 25.
  await c.query(
    `insert into repositories (user_id, github_id)
     select u.id, 900001 + ((u.github_id - 700001) * 10 + r) % 2000 from users u cross join generate_series(0, 24) r`,
  );
  await c.query(
    `insert into issues (user_id, repository_github_id, issue_number, title, html_url, github_id)
     select u.id, 900001 + ((u.github_id - 700001) * 10 + n % 25) % 2000, n, 'title', 'https://github.com/x/y/issues/1',
            u.github_id * 1000 + n
       from users u cross join generate_series(1, 100) n`,
  );
  await c.query(
    `insert into solutions (user_id, issue_id, analysis, proposed_solution, ai_model)
     select user_id, id, 'a', 'p', 'm' from issues where issue_number <= 25`,
  );
  await c.query(
    `insert into pull_requests (user_id, solution_id, issue_id, base_github_id, head_github_id, pr_number, title,
                                branch_name, base_branch, html_url)
     select s.user_id, s.id, s.issue_id, i.repository_github_id, 100000 + u.github_id, row_number() over (), 't',
            'fixloop/issue-' || i.issue_number, 'main', 'https://github.com/x/y/pull/1'
       from solutions s join issues i on i.id = s.issue_id join users u on u.id = s.user_id`,
  );
  await c.query("analyze");
}

/** The growing tables the lookup's queries read whole, as Postgres plans them. */
async function wholeTableReads(lookup: (db: Kysely<Database>) => Promise<unknown>): Promise<string[]> {
  sent.length = 0;
  await lookup(db);
  expect(sent.length).toBeGreaterThan(0);
  const c = await pool.connect();
  try {
    const keys = await leadingKeys(c);
    const out: string[] = [];
    for (const q of sent) {
      const r = await c.query<{ "QUERY PLAN": [{ Plan: PlanNode }] }>(`explain (format json) ${q.sql}`, [
        ...q.parameters,
      ]);
      out.push(...wholeReads(r.rows[0]!["QUERY PLAN"][0].Plan, keys));
    }
    return out;
  } finally {
    c.release();
  }
}

beforeAll(async () => {
  const c = await pool.connect();
  try {
    await seed(c);
  } finally {
    c.release();
  }
});

describe("the lookups a GitHub delivery makes across all users", () => {
  it("finds a repository by id, and a pull request by number or head branch, through an index", async () => {
    // Known from a user's list, known only as pull requests' head (the last lookup), and not known.
    for (const githubId of [900008, 800001, 123]) {
      expect(await wholeTableReads((d) => pullRequestEvents.knowsRepository(d, githubId))).toEqual([]);
      expect(await pullRequestEvents.knowsRepository(db, githubId)).toBe(githubId !== 123);
    }
    expect(await wholeTableReads((d) => pullRequestEvents.findPullRequest(d, 900008, 7))).toEqual([]);
    expect(await wholeTableReads((d) => pullRequestEvents.findByHeadBranch(d, 800001, "fixloop/issue-7"))).toEqual([]);
    expect(await wholeTableReads((d) => labelTriggers.enabledFor(d, 900008, "fixloop"))).toEqual([]);
  });

  it("marks an issue gone, and finds its runs, by its repository's id and number through an index", async () => {
    expect(await wholeTableReads((d) => issues.markGone(d, 900008, 7, { reason: "deleted" }))).toEqual([]);
    expect(await wholeTableReads((d) => runs.activeOfGoneIssue(d, 900008, 7))).toEqual([]);
  });
});

afterAll(async () => {
  await db.destroy();
});
