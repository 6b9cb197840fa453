import type { Db } from "@fixloop/db";
import { issues } from "@fixloop/db";
import { storedRepository } from "./bench-seed";
import type { RunMode } from "@fixloop/contract";
import {
  agentFromSolution,
  answerAsOracle,
  type GithubSandboxControl,
  type ModelSandboxControl,
} from "@fixloop/testkit/sandbox";
import { oracleAnswers, pushTree, type RealInstance } from "./real-instances";

/** What one real solve showed, judged against SWE-bench's FAIL_TO_PASS and PASS_TO_PASS. */
export interface RealOutcome {
  id: string;
  mode: RunMode;
  status: string;
  error: string | null;
  githubRequests: number;
  /** 1-based rank of the first gold file among the files step 3 gave the model; null when absent. */
  goldRank: number | null;
  filesShown: number;
  /** Whether the product applied the merged fix's edits to every gold file; null when step 4 did not end. */
  editApplied: boolean | null;
  testCommand: string | null;
  testsStatus: string | null;
  base: string;
  patched: string;
  reproduction: string | null;
  verified: boolean;
  unverifiedReason: string | null;
  failToPassFixed: number;
  failToPass: number;
  passToPassRegressed: string[];
  /** Per step: its status and seconds (running steps have no duration yet). */
  steps: string[];
  totalSeconds: number;
}

export interface RealSolveDeps {
  api: string;
  db: Db;
  headers: { cookie: string; origin: string };
  userId: string;
  github: GithubSandboxControl;
  models: ModelSandboxControl;
  owner: string;
  timeoutMs: number;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
/** A SWE-bench test id (`test_x` or `path::test_x`) names the same test as a product test name. */
const sameTest = (swe: string, ours: string) =>
  ours === swe || ours.endsWith(`::${swe}`) || ours.endsWith(` ${swe}`) || swe.endsWith(`::${ours}`);

/** An instance ready to solve: its tree on the GitHub stand-in, its issue stored, the oracle scripted. */
export interface PreparedReal {
  inst: RealInstance;
  issueId: string;
  gold: string[];
}

/**
 * Sets an instance up as a user's repository: the tree (already in `dir`, a git work tree at the
 * base) goes to the GitHub stand-in as `owner/<repo>`, the problem statement becomes the issue, and
 * the model stand-in answers it as the oracle (in Investigate, with no agent script, it makes that
 * answer turn by turn).
 */
export async function prepareReal(
  deps: RealSolveDeps,
  inst: RealInstance,
  dir: string,
  repo: string,
): Promise<PreparedReal> {
  const fullName = `${deps.owner}/${repo}`;
  await deps.github.createRepository(deps.owner, repo);
  pushTree(dir, deps.github.gitDir(deps.owner, repo), `Base of ${inst.instance_id}`);
  const oracle = oracleAnswers(dir, inst);
  const [title = inst.instance_id, ...rest] = inst.problem_statement.split("\n");
  // The prompt quotes the sanitized title; its longest run of plain words (as written, punctuation
  // never joined across) finds this issue's prompts.
  const marker =
    title
      .split(/[^\w ]+/)
      .map((r) => r.trim().replace(/\s+/g, " "))
      .sort((a, b) => b.length - a.length)[0] || inst.instance_id;
  answerAsOracle(deps.models, marker, oracle);
  // The stand-in's unscripted agent plays the seeded fixes' answers, not the oracle's rules above:
  // script it to make the oracle's answer turn by turn (list, open, one edit per file, submit).
  deps.models.agentWith((task) => task.includes(marker), agentFromSolution(oracle.solution));
  await issues.upsertSynced(deps.db, deps.userId, { id: null, githubId: await storedRepository(deps.db, fullName) }, [
    {
      issue_number: 1,
      title,
      body: rest.join("\n"),
      labels: [],
      assignees: [],
      state: "open",
      html_url: `https://github.com/${fullName}/issues/1`,
    },
  ]);
  const issue = (await issues.listOwned(deps.db, deps.userId)).find((i) => i.repo_full_name === fullName);
  if (!issue) throw new Error(`issue of ${fullName} was not stored`);
  return { inst, issueId: issue.id, gold: oracle.gold };
}

/**
 * Solves a prepared instance as a user would, in `mode` (single pass or Investigate), through the
 * API and a worker to the run's end (a solution already awaiting review is solved again).
 */
export async function solveReal(deps: RealSolveDeps, prepared: PreparedReal, mode: RunMode): Promise<RealOutcome> {
  const { inst, issueId } = prepared;
  const t0 = performance.now();
  deps.github.clearRequestLog();
  const headers = { ...deps.headers, "content-type": "application/json" };
  const res = await fetch(`${deps.api}/api/ai/generate-solution`, {
    method: "POST",
    headers,
    body: JSON.stringify({ issueId, mode, solveAgain: true }),
  });
  if (res.status !== 202) throw new Error(`generate-solution answered ${res.status}: ${await res.text()}`);
  const { runId } = (await res.json()) as { runId: string };
  let run = await deps.db.selectFrom("solve_runs").selectAll().where("id", "=", runId).executeTakeFirstOrThrow();
  const end = Date.now() + deps.timeoutMs;
  while (!["completed", "failed", "cancelled"].includes(run.status)) {
    if (Date.now() > end) {
      await fetch(`${deps.api}/api/runs/${runId}/cancel`, { method: "POST", headers });
      break;
    }
    await sleep(1000);
    run = await deps.db.selectFrom("solve_runs").selectAll().where("id", "=", runId).executeTakeFirstOrThrow();
  }
  const githubRequests = deps.github.requestLog.length;
  const steps = await deps.db.selectFrom("run_steps").selectAll().where("run_id", "=", runId).execute();
  const stepLines = steps.map(
    (s) => `${s.step} ${s.status}${s.duration_ms === null ? "" : ` ${(s.duration_ms / 1000).toFixed(1)} s`}`,
  );
  const shown = (
    (steps.find((s) => s.step === "dependencies")?.output as { files?: { path: string }[] } | null)?.files ?? []
  ).map((f) => f.path);
  const rank = shown.findIndex((p) => prepared.gold.includes(p));
  const generated = steps.find((s) => s.step === "generating")?.output as {
    filesChanged?: { filename: string }[];
  } | null;
  const solution = run.solution_id
    ? await deps.db.selectFrom("solutions").selectAll().where("id", "=", run.solution_id).executeTakeFirst()
    : undefined;
  const meta = (solution?.metadata ?? {}) as {
    tests?: {
      command: string | null;
      status: string;
      base: Record<string, number> | null;
      patched: Record<string, number> | null;
      fixed: string[];
      regressions: string[];
    };
    unverified?: { reason: string } | null;
    reproduction?: { status: string; failing?: string[]; passesWithSolution?: boolean | null } | null;
  };
  const tests = meta.tests;
  const counts = (c: Record<string, number> | null | undefined) =>
    c ? `${c.passed ?? 0} passed, ${c.failed ?? 0} failed, ${c.errored ?? 0} errored` : "not run";
  // Reported fixed: repository tests that failed on the base tree and pass, and the kept reproduction test's failing tests once it passes.
  const repro = meta.reproduction;
  const reproFixed = repro?.status === "kept" && repro.passesWithSolution ? (repro.failing ?? []) : [];
  const reported = [...(tests?.fixed ?? []), ...reproFixed];
  const fixedF2p = inst.FAIL_TO_PASS.filter((n) => reported.some((f) => sameTest(n, f)));
  return {
    id: inst.instance_id,
    mode,
    status: run.status,
    error: run.error_code,
    githubRequests,
    goldRank: rank >= 0 ? rank + 1 : null,
    filesShown: shown.length,
    editApplied: generated
      ? prepared.gold.every((g) => (generated.filesChanged ?? []).some((f) => f.filename === g))
      : null,
    testCommand: tests?.command ?? null,
    testsStatus: tests?.status ?? null,
    base: counts(tests?.base),
    patched: counts(tests?.patched),
    reproduction: meta.reproduction?.status ?? null,
    verified:
      !!solution && run.status === "completed" && !meta.unverified && fixedF2p.length === inst.FAIL_TO_PASS.length,
    unverifiedReason: meta.unverified?.reason ?? null,
    failToPassFixed: fixedF2p.length,
    failToPass: inst.FAIL_TO_PASS.length,
    passToPassRegressed: inst.PASS_TO_PASS.filter((n) => (tests?.regressions ?? []).some((r) => sameTest(n, r))),
    steps: stepLines,
    totalSeconds: (performance.now() - t0) / 1000,
  };
}
