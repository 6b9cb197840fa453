import fs from "node:fs";
import path from "node:path";
import { RunMode } from "@fixloop/contract";
import type { GithubSandboxControl, ModelSandboxControl } from "@fixloop/testkit/sandbox";
import { bwrapAvailable } from "@fixloop/worker/tests-run";
import { authorizeRepos } from "./approve-pr.section";
import { startBenchStack } from "./bench-stack";
import { evalDir } from "./localize/eval";
import { classifyFigures } from "./real-classify";
import { loadInstances, materialize, sympyFrom17 } from "./real-instances";
import { prepareReal, solveReal, type RealOutcome } from "./real-solve";
import { percentile, type Figure } from "./report";
import type { BenchContext, Section } from "./section.types";

/** Instances solved (BENCH_REAL_COUNT, default 10) and each one's limit (BENCH_REAL_TIMEOUT_S, default 900). */
const COUNT = Number(process.env.BENCH_REAL_COUNT ?? 10);
const TIMEOUT_MS = Number(process.env.BENCH_REAL_TIMEOUT_S ?? 900) * 1000;
const BUDGET = 25;
/** Modes each instance is solved in, in this order (BENCH_REAL_MODES, default single); the first is the baseline. */
const MODES = RunMode.array()
  .min(1)
  .parse((process.env.BENCH_REAL_MODES ?? "single").split(",").map((m) => m.trim()));

function row(o: RealOutcome): string {
  const steps = o.steps.join(", ");
  return [
    `${o.id} [${o.mode}]: ${o.status}${o.error ? ` (${o.error})` : ""}, ${o.totalSeconds.toFixed(0)} s, ${o.githubRequests} GitHub requests`,
    `  gold file rank ${o.goldRank ?? "absent"} of ${o.filesShown} shown; edit applied: ${o.editApplied === null ? "step 4 did not end" : o.editApplied ? "yes" : "no"}`,
    `  tests: ${o.testCommand ?? "none"} → ${o.testsStatus ?? "-"}; base ${o.base}; patched ${o.patched}; reproduction ${o.reproduction ?? "-"}`,
    `  verdict: ${o.verified ? "verified" : `not verified (${o.unverifiedReason ?? "no solution or FAIL_TO_PASS not fixed"})`}; FAIL_TO_PASS fixed ${o.failToPassFixed}/${o.failToPass}; PASS_TO_PASS regressions ${o.passToPassRegressed.length ? o.passToPassRegressed.join(", ") : "none"}`,
    `  steps: ${steps}`,
  ].join("\n");
}

function totals(done: RealOutcome[]): Figure[] {
  const n = done.length;
  const s = "real repositories (sympy, oracle model)";
  const median = percentile(
    done.map((o) => o.totalSeconds),
    50,
  );
  const reqs = done.map((o) => o.githubRequests);
  const verified = done.filter((o) => o.verified).length;
  const applied = done.filter((o) => o.editApplied).length;
  const fixed = done.reduce((a, o) => a + o.failToPassFixed, 0);
  const f2p = done.reduce((a, o) => a + o.failToPass, 0);
  const p2p = done.reduce((a, o) => a + o.passToPassRegressed.length, 0);
  return [
    { section: s, name: "instances solved", value: n, unit: "" },
    { section: s, name: "oracle patch applied", value: applied, unit: `of ${n}`, target: "all", holds: applied === n },
    {
      section: s,
      name: "verified with FAIL_TO_PASS fixed",
      value: n ? (100 * verified) / n : 0,
      unit: "%",
      target: ">= 90 %",
      holds: n > 0 && verified / n >= 0.9,
    },
    { section: s, name: "FAIL_TO_PASS tests reported fixed", value: fixed, unit: `of ${f2p}` },
    { section: s, name: "PASS_TO_PASS reported as regressions", value: p2p, unit: "", target: "0", holds: p2p === 0 },
    { section: s, name: "median solve", value: median, unit: "s", target: "< 120 s", holds: median < 120 },
    {
      section: s,
      name: "GitHub requests per solve (max)",
      value: Math.max(0, ...reqs),
      unit: "",
      target: `<= ${BUDGET}`,
      holds: reqs.every((r) => r <= BUDGET),
    },
    { section: s, name: "GitHub requests per solve (median)", value: percentile(reqs, 50), unit: "" },
  ];
}

/** What Investigate must not do worse than the single pass on the same instances. */
const NO_WORSE = new Set([
  "oracle patch applied",
  "verified with FAIL_TO_PASS fixed",
  "FAIL_TO_PASS tests reported fixed",
]);

/**
 * The first mode's totals, then each other mode's beside them (same instances, same run): the
 * first mode's value is the baseline, and Investigate must do no worse on what it resolves.
 */
function totalsByMode(done: RealOutcome[]): Figure[] {
  const [first = "single", ...others] = MODES;
  const base = totals(done.filter((o) => o.mode === first));
  const out = base.map((f) => ({ ...f, name: `${first}: ${f.name}` }));
  for (const mode of others) {
    for (const [i, f] of totals(done.filter((o) => o.mode === mode)).entries()) {
      const b = base[i];
      out.push({
        ...f,
        name: `${mode}: ${f.name}`,
        ...(b ? { baseline: b.value, baselineName: first } : {}),
        ...(b && NO_WORSE.has(f.name) ? { target: `no worse than ${first}`, holds: f.value >= b.value } : {}),
      });
    }
  }
  return MODES.length > 1 ? out : base;
}

async function realRepositories(ctx: BenchContext): Promise<Figure[]> {
  const mirror = path.join(ctx.mirrors, "sympy+sympy", "repo");
  if (!ctx.mirrors || !fs.existsSync(mirror)) {
    process.stderr.write(`  real: no sympy mirror (${mirror || "MIRROR_ROOT unset"}): real repositories skipped\n`);
    return [];
  }
  if (!bwrapAvailable()) {
    process.stderr.write("  real: bwrap not found: real repositories skipped\n");
    return [];
  }
  const only = process.env.BENCH_REAL_IDS?.split(",");
  const chosen = sympyFrom17(loadInstances(evalDir()))
    .filter((i) => !only || only.includes(i.instance_id))
    .slice(0, COUNT);
  const bs = await startBenchStack(ctx, "real");
  const done: RealOutcome[] = [];
  try {
    bs.startWorker();
    const github = bs.stack.sandboxes.github?.control as GithubSandboxControl | undefined;
    const models = bs.stack.sandboxes.models?.control as ModelSandboxControl | undefined;
    if (!github || !models || !bs.stack.sandboxes.github) throw new Error("the bench stack has no stand-ins");
    const me = await bs.signIn("octocat");
    await authorizeRepos(bs, bs.stack.sandboxes.github.url, "octocat", me);
    for (const [n, inst] of chosen.entries()) {
      const dir = path.join(ctx.dir, "real", inst.instance_id);
      try {
        materialize(mirror, inst.base_commit, dir);
        const deps = {
          api: bs.api,
          db: bs.db,
          headers: me.headers,
          userId: me.userId,
          github,
          models,
          owner: "octocat",
          timeoutMs: TIMEOUT_MS,
        };
        const prepared = await prepareReal(deps, inst, dir, `sympy-${n + 1}`);
        // The order alternates per instance: the first solve of an instance warms its caches.
        for (const mode of n % 2 ? [...MODES].reverse() : MODES) {
          const o = await solveReal(deps, prepared, mode);
          done.push(o);
          process.stderr.write(`${row(o)}\n`);
          ctx.appendix.push(row(o));
        }
      } catch (e) {
        const line = `${inst.instance_id}: harness failed: ${(e as Error).message.slice(0, 500)}`;
        process.stderr.write(`  ${line}\n`);
        ctx.appendix.push(line);
      } finally {
        fs.rmSync(dir, { recursive: true, force: true });
      }
    }
  } finally {
    await bs.stop();
  }
  return totalsByMode(done);
}

/**
 * "real": step 1's classification of the tune set's real issues, then (with MIRROR_ROOT) sympy
 * instances of version >= 1.7 solved through the whole product (API, a worker, the GitHub stand-in
 * holding the real tree at the base commit, an oracle model answering with the merged fix and a
 * reproduction test cut from the merged tests), judged against FAIL_TO_PASS and PASS_TO_PASS.
 * BENCH_REAL_IDS picks instances by id; BENCH_REAL_MODES=single,investigate solves each one in both
 * modes and prints Investigate's figures beside the single pass's.
 */
export const realSection: Section = {
  name: "real",
  async run(ctx: BenchContext): Promise<Figure[]> {
    return [...(await classifyFigures(ctx.appendix)), ...(await realRepositories(ctx))];
  },
};
