import { createHash } from "node:crypto";
import type { Db } from "../src/client";
import * as githubRepositories from "../src/repositories/github-repositories.repository";
import type { FileChange } from "@fixloop/contract";
import type { NewSolveRun } from "../src/schema";

/** An issue row of a seeded stand-in repository, owned by `userId`. */
let users = 0;

/** A signed-up user row (no GitHub account); each call makes a new one. Returns its id. */
export async function insertUser(db: Db): Promise<string> {
  users++;
  const u = await db
    .insertInto("users")
    .values({ github_id: 7_000_000 + users, username: `user${users}` })
    .returning("id")
    .executeTakeFirstOrThrow();
  return u.id;
}

/**
 * The GitHub id repository `fullName` is stored under: the one already stored under that name (a
 * sync's, GitHub's own), else `githubId`, else one derived from the name; stored as a sync would.
 */
export async function seedRepository(db: Db, fullName: string, githubId?: number): Promise<string> {
  const known = githubId === undefined ? await githubRepositories.idOf(db, fullName) : undefined;
  if (known) return known;
  const id = githubId ?? 1_000_000 + (createHash("sha256").update(fullName).digest().readUInt32BE(0) % 1_000_000_000);
  return githubRepositories.upsert(db, { github_id: id, full_name: fullName });
}

export async function insertIssue(
  db: Db,
  userId: string,
  o: { repo?: string; number?: number; title?: string; body?: string; labels?: string[] } = {},
) {
  const repo = o.repo ?? "hubot/markdown-lint";
  const number = o.number ?? 3;
  return db
    .insertInto("issues")
    .values({
      user_id: userId,
      repository_github_id: await seedRepository(db, repo),
      issue_number: number,
      title: o.title ?? "trailing-spaces ignores trailing tabs",
      body:
        o.body ??
        'A line ending in a tab (`"text\\t"`) is not reported by `trailing-spaces`, although the README says the rule checks for spaces or tabs. The pattern is the `TRAILING` regular expression in `src/rules/trailing-spaces.js`.',
      labels: JSON.stringify(o.labels ?? ["bug", "good first issue"]),
      status: "open",
      html_url: `https://github.com/${repo}/issues/${number}`,
    })
    .returning("id")
    .executeTakeFirstOrThrow();
}

/** A solve run row of `issue_id` (queued, on a Groq model unless `values` say otherwise). Returns its id. */
export async function insertRun(db: Db, values: Omit<NewSolveRun, "model_id"> & { model_id?: string }) {
  return db
    .insertInto("solve_runs")
    .values({ model_id: "llama-3.3-70b-versatile", ...values })
    .returning("id")
    .executeTakeFirstOrThrow();
}

export interface SeedSolution {
  userId: string;
  repoFullName: string;
  issueNumber: number;
  title?: string;
  files: FileChange[];
  imported?: { upstream: string; fork: string };
  status?: "pending" | "approved";
  metadata?: Record<string, unknown>;
}

/** An issue and a generated solution for it, as the solve pipeline leaves them. */
export async function seedSolution(db: Db, s: SeedSolution) {
  const issue = await db
    .insertInto("issues")
    .values({
      user_id: s.userId,
      repository_github_id: await seedRepository(db, s.imported?.upstream ?? s.repoFullName),
      issue_number: s.issueNumber,
      title: s.title ?? "Pagination skips a todo at every page boundary",
      body: "The offset is computed in paginate().",
      labels: JSON.stringify(["bug"]),
      status: "solved",
      html_url: `https://github.com/${s.imported?.upstream ?? s.repoFullName}/issues/${s.issueNumber}`,
      assignees: JSON.stringify([]),
      is_imported: !!s.imported,
      fork_github_id: s.imported ? await seedRepository(db, s.imported.fork) : null,
    })
    .returning(["id"])
    .executeTakeFirstOrThrow();
  const solution = await db
    .insertInto("solutions")
    .values({
      user_id: s.userId,
      issue_id: issue.id,
      status: s.status ?? "pending",
      analysis: "paginate() adds 1 to the start offset after the first page, dropping one item per boundary.",
      proposed_solution: "Compute the start offset as (page - 1) * perPage.",
      ai_model: "llama-3.3-70b-versatile",
      confidence: 88,
      files_changed: JSON.stringify(s.files),
      metadata: JSON.stringify({
        repository: s.repoFullName,
        classification: { type: "bug", complexity: "simple" },
        validation: {
          riskLevel: "low",
          stats: {
            filesChanged: s.files.length,
            linesAdded: 1,
            linesRemoved: 2,
            percentageChanged: 3,
            newFiles: 0,
            deletedFiles: 0,
          },
          warnings: [],
          suggestions: ["Add a boundary test"],
        },
        riskScore: 18,
        testSuggestions: ["Page 2 starts right after page 1"],
        advancedValidation: { score: 96, errors: [], warnings: [] },
        blocked: [],
        ...s.metadata,
      }),
    })
    .returning(["id"])
    .executeTakeFirstOrThrow();
  return { issueId: issue.id, solutionId: solution.id };
}

/**
 * Pull request #12 (or `number`) "Fix #5" (or of `issueNumber`) from `head` into `base`, recorded for
 * a seeded solution (see `seedSolution`).
 */
export async function insertPullRequest(
  db: Db,
  p: {
    userId: string;
    solutionId: string;
    issueId: string;
    base: string;
    head: string;
    htmlUrl?: string;
    number?: number;
    issueNumber?: number;
  },
) {
  const number = p.number ?? 12;
  const issueNumber = p.issueNumber ?? 5;
  return db
    .insertInto("pull_requests")
    .values({
      user_id: p.userId,
      solution_id: p.solutionId,
      issue_id: p.issueId,
      base_github_id: await seedRepository(db, p.base),
      head_github_id: await seedRepository(db, p.head),
      pr_number: number,
      title: `Fix #${issueNumber}`,
      body: null,
      branch_name: `fixloop/issue-${issueNumber}`,
      base_branch: "main",
      html_url: p.htmlUrl ?? `https://github.com/${p.base}/pull/${number}`,
      metadata: JSON.stringify({}),
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}
