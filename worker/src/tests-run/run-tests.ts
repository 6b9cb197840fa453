import { createHash } from "node:crypto";
import type { Redis } from "ioredis";
import type { FileChange } from "@fixloop/db";
import type { RepositoryTestSettings, SandboxBackend, TestsEvent, TestsPhase } from "../contract";
import { detectTestPlan, type TestPlan } from "./detect";
import type { PhaseRun } from "./compare";
import { TestOutputParser } from "./parse";
import { sandboxRunUid, type SandboxLimits, type SandboxRunner } from "./sandbox";
import { TestsEventStream } from "./tests.stream";
import { baseTree, checkout, handToSandbox, writeInside, type WorkspaceCache } from "./workspace";

export interface TestsDeps {
  /** null when SANDBOX_BACKEND=off. */
  runner: SandboxRunner | null;
  backend: SandboxBackend;
  cache: WorkspaceCache;
  limits: SandboxLimits;
  redis: Redis;
  prefix: string;
  emit: (e: TestsEvent) => Promise<unknown>;
  signal?: AbortSignal;
}

export interface RepoAtCommit {
  owner: string;
  repo: string;
  commit: string;
  settings: RepositoryTestSettings | null;
  /** Writes the repository's files at `commit` into an empty directory. */
  fetch: (dir: string) => Promise<void>;
}

export interface Prepared {
  plan: TestPlan;
  baseDir: string;
  base: PhaseRun;
  baseCached: boolean;
  workspaceCached: boolean;
}

const BASE_TTL_SECONDS = 7 * 24 * 3600;

const timeoutOf = (deps: TestsDeps, plan: TestPlan) => plan.timeoutMs ?? deps.limits.timeoutMs;

/** Runs setup (if any) and the tests in `dir`, streaming output as `tests` events of `phase`. */
export async function runPhase(
  deps: TestsDeps,
  plan: TestPlan,
  dir: string,
  phase: TestsPhase,
  uid?: number,
): Promise<PhaseRun> {
  if (!deps.runner) throw new Error("no sandbox runner");
  const parser = new TestOutputParser();
  const stream = new TestsEventStream(phase, deps.emit, () => parser.counts());
  const limits = { ...deps.limits, timeoutMs: timeoutOf(deps, plan) };
  const started = Date.now();
  try {
    if (plan.setup) {
      stream.push(`$ ${plan.setup}\n`);
      const s = await deps.runner.run({
        workspace: dir,
        command: plan.setup,
        network: plan.setupNetwork,
        limits,
        onOutput: (c) => stream.push(c),
        signal: deps.signal,
        language: plan.language,
        uid,
      });
      if (s.exitCode !== 0) {
        return {
          counts: { passed: 0, failed: 0, errored: 0, durationMs: Date.now() - started },
          results: {},
          runners: [],
          exitCode: s.exitCode,
          timedOut: s.timedOut,
          setupFailed: !s.cancelled,
          cancelled: s.cancelled,
          logTail: s.output,
        };
      }
    }
    stream.push(`$ ${plan.command}\n`);
    const r = await deps.runner.run({
      workspace: dir,
      command: plan.command,
      network: false,
      limits,
      onOutput: (c) => {
        parser.feed(c);
        stream.push(c);
      },
      signal: deps.signal,
      language: plan.language,
      uid,
    });
    const parsed = parser.finish();
    const tail = r.truncated
      ? `[output truncated to the last ${Math.round(deps.limits.outputBytes / 1024)} KiB]\n${r.output}`
      : r.output;
    return {
      counts: { ...parsed.counts, durationMs: r.durationMs },
      results: parsed.results,
      runners: parsed.runners,
      exitCode: r.exitCode,
      timedOut: r.timedOut,
      setupFailed: false,
      cancelled: r.cancelled,
      logTail: tail,
    };
  } finally {
    await stream.end();
  }
}

const baseKey = (deps: TestsDeps, ref: RepoAtCommit, plan: TestPlan) => {
  const what = createHash("sha256")
    .update(JSON.stringify([deps.backend, plan.command, plan.setup, plan.setupNetwork, plan.timeoutMs]))
    .digest("hex")
    .slice(0, 16);
  return `${deps.prefix}:tests-base:${ref.owner.toLowerCase()}/${ref.repo.toLowerCase()}@${ref.commit}:${what}`;
};

/** The base tree on disk, its test plan (or why there is none) and its test results (cached per commit + command). */
export async function prepareTests(
  deps: TestsDeps,
  ref: RepoAtCommit,
): Promise<Prepared | { reason: string; command: string | null }> {
  const base = await baseTree(deps.cache, ref.owner, ref.repo, ref.commit, ref.fetch);
  const plan = await detectTestPlan(base.dir, ref.settings);
  if ("reason" in plan) return { reason: plan.reason, command: null };
  const key = baseKey(deps, ref, plan);
  const hit = await deps.redis.get(key);
  if (hit) {
    const run = JSON.parse(hit) as PhaseRun;
    await deps.emit({
      type: "tests",
      phase: "base",
      output: `Base results of ${ref.commit.slice(0, 7)} reused from an earlier run of \`${plan.command}\`\n`,
      counts: run.counts,
      done: true,
      at: new Date().toISOString(),
    });
    return { plan, baseDir: base.dir, base: run, baseCached: true, workspaceCached: base.cached };
  }
  const run = await inCopy(deps, base.dir, [], (dir, uid) => runPhase(deps, plan, dir, "base", uid));
  if (!run.timedOut && !run.cancelled && !deps.signal?.aborted)
    await deps.redis.set(key, JSON.stringify(run), "EX", BASE_TTL_SECONDS);
  return { plan, baseDir: base.dir, base: run, baseCached: false, workspaceCached: base.cached };
}

/** Runs the tests on the base tree with `files` applied. */
export function runPatched(
  deps: TestsDeps,
  prepared: Prepared,
  files: FileChange[],
  phase: "patched" | "repair",
): Promise<PhaseRun> {
  return inCopy(deps, prepared.baseDir, files, (dir, uid) => runPhase(deps, prepared.plan, dir, phase, uid));
}

/** Runs `fn` in a private copy of `baseDir` with `files` applied, owned by a uid of its own. */
async function inCopy<T>(
  deps: TestsDeps,
  baseDir: string,
  files: FileChange[],
  fn: (dir: string, uid: number) => Promise<T>,
): Promise<T> {
  const ws = await checkout(deps.cache, baseDir);
  const uid = sandboxRunUid();
  try {
    for (const f of files) await writeInside(ws.dir, f.filename, f.action === "delete" ? null : f.content);
    await handToSandbox(ws.dir, uid);
    return await fn(ws.dir, uid);
  } finally {
    await ws.dispose();
  }
}
