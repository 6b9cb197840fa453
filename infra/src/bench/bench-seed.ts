import type { FileChange } from "@fixloop/contract";
import { createHash } from "node:crypto";
import { githubRepositories, issues, runs, type Db } from "@fixloop/db";

/** What the bench needs in the database before it measures, written through db's repositories as sync and the pipeline write it. */

const issueColumns = (
  repo: string,
  number: number,
  o: { title?: string; labels?: string[] },
): issues.GithubIssueColumns => ({
  issue_number: number,
  title: o.title ?? "trailing-spaces ignores trailing tabs",
  body: 'A line ending in a tab (`"text\\t"`) is not reported by `trailing-spaces`, although the README says the rule checks for spaces or tabs.',
  labels: o.labels ?? ["bug", "good first issue"],
  assignees: [],
  state: "open",
  html_url: `https://github.com/${repo}/issues/${number}`,
});

/**
 * The GitHub id the bench's repository `fullName` is stored under (one derived from the name, as
 * no GitHub answers here), stored as a sync would.
 */
export async function storedRepository(db: Db, fullName: string): Promise<string> {
  const known = await githubRepositories.idOf(db, fullName);
  if (known) return known;
  const githubId = 1_000_000 + (createHash("sha256").update(fullName).digest().readUInt32BE(0) % 1_000_000_000);
  return githubRepositories.upsert(db, { github_id: githubId, full_name: fullName });
}

/** Open issues `numbers` of `repo`, as a repository sync stores them; their ids in the same order. */
export async function seedIssues(
  db: Db,
  userId: string,
  numbers: number[],
  o: { repo?: string; title?: string; labels?: string[] } = {},
): Promise<string[]> {
  const repo = o.repo ?? "hubot/markdown-lint";
  await issues.upsertSynced(
    db,
    userId,
    { id: null, githubId: await storedRepository(db, repo) },
    numbers.map((n) => issueColumns(repo, n, o)),
  );
  const byNumber = new Map(
    (await issues.listOwned(db, userId)).filter((i) => i.repo_full_name === repo).map((i) => [i.issue_number, i.id]),
  );
  return numbers.map((n) => {
    const id = byNumber.get(n);
    if (!id) throw new Error(`issue ${repo}#${n} was not stored`);
    return id;
  });
}

/** A run of the issue started (quota reserved) and claimed, as a worker holds it while it runs. */
export async function startedRun(db: Db, userId: string, issueId: string): Promise<string> {
  const started = await runs.start(db, async () => ({ userId, issueId, modelId: "bench", kind: "solve" }));
  if (started.status !== "started") throw new Error(`the bench run did not start: ${started.status}`);
  if (!(await runs.claim(db, started.runId))) throw new Error(`the bench run ${started.runId} ended before it ran`);
  return started.runId;
}

export interface BenchSolution {
  userId: string;
  repoFullName: string;
  issueNumber: number;
  title: string;
  files: FileChange[];
  imported?: { upstream: string; fork: string };
}

/** An issue and the pending solution a finished solve run left for it. */
export async function seedSolution(db: Db, s: BenchSolution): Promise<{ issueId: string; solutionId: string }> {
  const upstream = s.imported?.upstream ?? s.repoFullName;
  const cols = issueColumns(upstream, s.issueNumber, { title: s.title, labels: ["bug"] });
  const issueId = s.imported
    ? await issues.recordImported(
        db,
        s.userId,
        {
          upstream: { github_id: await storedRepository(db, s.imported.upstream), full_name: s.imported.upstream },
          fork: { github_id: await storedRepository(db, s.imported.fork), full_name: s.imported.fork },
        },
        cols,
      )
    : (await seedIssues(db, s.userId, [s.issueNumber], { repo: upstream, title: s.title, labels: ["bug"] }))[0]!;
  const runId = await startedRun(db, s.userId, issueId);
  const solutionId = await runs.finish(db, runId, {
    analysis: "paginate() adds 1 to the start offset after the first page, dropping one item per boundary.",
    proposedSolution: "Compute the start offset as (page - 1) * perPage.",
    model: "llama-3.3-70b-versatile",
    confidence: 88,
    filesChanged: s.files,
    baseCommitSha: null,
    feedback: null,
    metadata: {
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
    },
  });
  return { issueId, solutionId };
}
