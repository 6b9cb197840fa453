import { createHash } from "node:crypto";
import type { Redis } from "ioredis";
import {
  type FileChange,
  type RepositoryTestSettings,
  type RunSetupNetwork,
  type SandboxBackend,
  type TestsEvent,
  type TestsPhase,
} from "@fixloop/contract";
import { detectTestPlan, planForBackend, type TestPlan } from "./detect";
import { selectorFor, type RelatedInput, type Selector } from "./select";
import { narrow, NO_TESTS_RUN, noneRelated } from "./plan.narrow";
import type { PhaseRun } from "./compare";
import { TestOutputParser } from "./parse";
import { MAX_RESULTS } from "./parse.types";
import { sandboxRunUid, type SandboxLimits, type SandboxResult, type SandboxRunner } from "./sandbox";
import { phaseLimits } from "./tests.limits";
import { TestsEventStream } from "./tests.stream";
import { recordSandboxRun } from "./tests.metrics";
import { applyPatch, patchNotes, SETUP_REUSED, snapshotSetUp, type PhaseOptions, type SetUpBase } from "./setup-base";
import { baseTree, type WorkspaceCache } from "./workspace";
import { checkoutWalled } from "./workspace.walled-copy";
import { scrubHostPaths } from "./workspace.cleanup";

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
  /** A workspace that could not be removed after a run (the result stands; the startup sweep retries). */
  onCleanupError?: (err: Error) => void;
}

export interface RepoAtCommit {
  owner: string;
  repo: string;
  commit: string;
  settings: RepositoryTestSettings | null;
  /** A repository the user can push to (`trustedRepository`): only then may `.fixloop.yml` grant setup network. */
  trusted: boolean;
  /** The user's choice for this run when `.fixloop.yml` asks for network it cannot grant itself. */
  setupNetwork?: RunSetupNetwork;
  /** Writes the repository's files at `commit` into an empty directory. */
  fetch: (dir: string) => Promise<void>;
  /**
   * What the tests that matter are: the issue and step 3's files (a solve), or the test files an
   * earlier run chose (a re-run). Without it a detected command runs the whole suite.
   */
  related?: RelatedInput | { files: string[] };
}

export interface Prepared {
  plan: TestPlan;
  baseDir: string;
  base: PhaseRun;
  baseCached: boolean;
  workspaceCached: boolean;
  /** The base tree after a networked setup, reused (offline) by the patched and repair phases; `disposePrepared` removes it. */
  setUp: SetUpBase | null;
  /** How the runner runs chosen test files (the reproduction test on its own, the patch's tests); null when it cannot. */
  selector: Selector | null;
}

const BASE_TTL_SECONDS = 7 * 24 * 3600;

const walls = (r: SandboxResult): Pick<PhaseRun, "limitHit" | "totals" | "disk"> => ({
  ...(r.limitHit ? { limitHit: r.limitHit } : {}),
  ...(r.totals ? { totals: r.totals } : {}),
  ...(r.disk ? { disk: r.disk } : {}),
});

/** Runs setup (if any) and the tests in `dir`, streaming output as `tests` events of `phase`; counted by result. */
export async function runPhase(
  deps: TestsDeps,
  plan: TestPlan,
  dir: string,
  phase: TestsPhase,
  uid?: number,
  opts: PhaseOptions = {},
): Promise<PhaseRun> {
  const run = await runPhaseOnce(deps, plan, dir, phase, uid, opts);
  await recordSandboxRun(deps, phase, run);
  return run;
}

async function runPhaseOnce(
  deps: TestsDeps,
  plan: TestPlan,
  dir: string,
  phase: TestsPhase,
  uid?: number,
  opts: PhaseOptions = {},
): Promise<PhaseRun> {
  if (!deps.runner) throw new Error("no sandbox runner");
  const parser = new TestOutputParser();
  const stream = new TestsEventStream(phase, deps.emit, () => parser.counts());
  const limits = phaseLimits(deps.limits, plan);
  const started = Date.now();
  let blockedHosts: string[] | undefined;
  try {
    if (plan.setup && opts.setup === "skip") stream.push(`${SETUP_REUSED(plan.setup)}\n`);
    else if (plan.setup) {
      stream.push(`$ ${plan.setup}\n`);
      const s = await deps.runner.run({
        workspace: dir,
        command: plan.setup,
        network: plan.setupNetwork && opts.setup !== "offline",
        limits,
        onOutput: (c) => stream.push(c),
        signal: deps.signal,
        language: plan.language,
        uid,
      });
      blockedHosts = s.blockedHosts;
      if (s.exitCode !== 0) {
        return {
          ...(blockedHosts ? { blockedHosts } : {}),
          counts: { passed: 0, failed: 0, errored: 0, durationMs: Date.now() - started },
          results: {},
          runners: [],
          exitCode: s.exitCode,
          timedOut: s.timedOut,
          setupFailed: !s.cancelled,
          cancelled: s.cancelled,
          logTail: scrubHostPaths(s.output, [deps.cache.root, dir]),
          ...walls(s),
        };
      }
      await opts.afterSetup?.(dir);
    }
    stream.push(`$ ${plan.command}\n`);
    const r = await deps.runner.run({
      workspace: dir,
      command: plan.command,
      network: false,
      limits,
      onOutput: (c, from) => {
        parser.feed(c, from);
        stream.push(c);
      },
      signal: deps.signal,
      language: plan.language,
      uid,
    });
    const parsed = parser.finish();
    const output = scrubHostPaths(r.output, [deps.cache.root, dir]);
    const tail = r.truncated
      ? `[output truncated to the last ${Math.round(deps.limits.outputBytes / 1024)} KiB]\n${output}`
      : output;
    const cut = parsed.truncated;
    return {
      ...(blockedHosts ? { blockedHosts } : {}),
      counts: { ...parsed.counts, durationMs: r.durationMs },
      results: parsed.results,
      ...(cut ? { truncated: cut } : {}),
      ...(cut
        ? {
            notes: [
              `The ${phase} run reported more test results than are kept: only the first ${MAX_RESULTS} are named and compared (${cut.results} more, ${cut.failing} of them failing)`,
            ],
          }
        : {}),
      runners: parsed.runners,
      exitCode: r.exitCode,
      timedOut: r.timedOut,
      setupFailed: false,
      cancelled: r.cancelled,
      logTail: tail,
      ...walls(r),
    };
  } finally {
    await stream.end();
  }
}

/**
 * How base results name tests, part of their cache key: 2 = names cut to MAX_NAME and at most
 * MAX_RESULTS of them. Base results cached before it hold longer names the patched run no
 * longer reports, which would read as tests that "no longer run".
 */
const RESULTS_FORMAT = 2;

const baseKey = (deps: TestsDeps, ref: RepoAtCommit, plan: TestPlan) => {
  const what = createHash("sha256")
    .update(JSON.stringify([deps.backend, plan.command, plan.setup, plan.setupNetwork, plan.timeoutMs, RESULTS_FORMAT]))
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
  const detected = await detectTestPlan(base.dir, ref.settings, ref.trusted, ref.setupNetwork);
  if ("reason" in detected) return { reason: detected.reason, command: null };
  const selector = await selectorFor(base.dir, detected);
  const plan = narrow(planForBackend(detected, deps.backend), selector, ref.related);
  // Nothing relates: no base run (the reproduction test and the change's own tests still run).
  if (noneRelated(plan))
    return {
      plan,
      baseDir: base.dir,
      base: NO_TESTS_RUN,
      baseCached: false,
      workspaceCached: base.cached,
      setUp: null,
      selector,
    };
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
    return {
      plan,
      baseDir: base.dir,
      base: run,
      baseCached: true,
      workspaceCached: base.cached,
      setUp: null,
      selector,
    };
  }
  let setUp: SetUpBase | null = null;
  const run = await inCopy(deps, base.dir, [], (dir, uid) =>
    runPhase(deps, plan, dir, "base", uid, {
      afterSetup: plan.setupNetwork ? async (d) => void (setUp = await snapshotSetUp(deps.cache, d)) : undefined,
    }),
  );
  if (!run.timedOut && !run.limitHit && !run.cancelled && !deps.signal?.aborted)
    await deps.redis.set(key, JSON.stringify(run), "EX", BASE_TTL_SECONDS);
  return { plan, baseDir: base.dir, base: run, baseCached: false, workspaceCached: base.cached, setUp, selector };
}

/**
 * Runs the tests on the base tree with `files` applied. The patch never runs with network: a
 * networked setup ran on the base tree (patch not yet written) and its result is copied; an
 * offline setup runs again, offline.
 */
export async function runPatched(
  deps: TestsDeps,
  prepared: Prepared,
  files: FileChange[],
  phase: "patched" | "repair",
  /** Another command than the plan's (the same runner on other test files). */
  command?: string,
): Promise<PhaseRun> {
  const plan = command ? { ...prepared.plan, command } : prepared.plan;
  let run: PhaseRun;
  if (!plan.setup || !plan.setupNetwork)
    run = await inCopy(deps, prepared.baseDir, files, (dir, uid) =>
      runPhase(deps, plan, dir, phase, uid, { setup: "offline" }),
    );
  else if (prepared.setUp)
    run = await inCopy(deps, prepared.setUp.dir, files, (dir, uid) =>
      runPhase(deps, plan, dir, phase, uid, { setup: "skip" }),
    );
  else
    run = await inCopy(deps, prepared.baseDir, [], (dir, uid) =>
      runPhase(deps, plan, dir, phase, uid, {
        afterSetup: async (d) => {
          prepared.setUp = await snapshotSetUp(deps.cache, d);
          await applyPatch(d, files, uid);
        },
      }),
    );
  const notes = patchNotes(plan, files);
  return notes.length ? { ...run, notes: [...(run.notes ?? []), ...notes] } : run;
}

/**
 * Runs `fn` in a private copy of `baseDir` with `files` applied, owned by a uid of its own, inside
 * a filesystem of the disk budget's size where one can be mounted (the run says why not otherwise).
 */
async function inCopy(
  deps: TestsDeps,
  baseDir: string,
  files: FileChange[],
  fn: (dir: string, uid: number) => Promise<PhaseRun>,
): Promise<PhaseRun> {
  const ws = await checkoutWalled(deps.cache, baseDir, deps.limits.diskBytes);
  const uid = sandboxRunUid();
  try {
    await applyPatch(ws.dir, files, uid);
    const run = await fn(ws.dir, uid);
    return ws.why && run.disk === "poll" ? { ...run, diskWhy: ws.why } : run;
  } finally {
    await ws.dispose().catch((err: Error) => deps.onCleanupError?.(err));
  }
}

/**
 * Removes the set-up base tree a run kept (safe to call more than once). Never throws: a tree that
 * cannot be removed goes to `onCleanupError` (and the startup sweep), the run's result stands.
 */
export async function disposePrepared(prepared: Prepared, onCleanupError?: (err: Error) => void): Promise<void> {
  const s = prepared.setUp;
  prepared.setUp = null;
  await s?.dispose().catch((err: Error) => onCleanupError?.(err));
}
