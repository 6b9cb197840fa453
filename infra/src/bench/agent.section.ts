import { issues } from "@fixloop/db";
import type { RunMode } from "@fixloop/contract";
import {
  SEED_REPOS,
  SEEDED_FIXES,
  type AgentScriptStep,
  type GithubSandboxControl,
  type ModelSandboxControl,
} from "@fixloop/testkit/sandbox";
import { bwrapAvailable } from "@fixloop/worker/tests-run";
import { authorizeRepos } from "./approve-pr.section";
import { startBenchStack, type BenchStack } from "./bench-stack";
import { storedRepository } from "./bench-seed";
import { measureRun, startAndWait, type ModeSolve } from "./agent-solve";
import { percentile, type Figure } from "./report";
import type { BenchContext, Section } from "./section.types";

const REPO = "hubot/markdown-lint";
/** Each solve's limit (BENCH_AGENT_TIMEOUT_S, default 300); the run is cancelled then. */
const TIMEOUT_MS = Number(process.env.BENCH_AGENT_TIMEOUT_S ?? 300) * 1000;
const MODES: RunMode[] = ["single", "investigate"];
const KEYS = ["OPENAI_API_KEY", "ANTHROPIC_API_KEY", "GROQ_API_KEY"];

/** The scripted set: the seeded repository's bug fixes that come with a reproduction test (issues 2, 3 and 4). */
const FIXES = SEEDED_FIXES.filter((f) => f.repo === REPO && f.reproduction);
const seedIssue = (n: number) => SEED_REPOS.find((r) => `${r.owner}/${r.name}` === REPO)?.issues[n - 1];

/** The fix's reproduction test run from the repository's root (its imports rewritten to match). */
const reproduce = (f: (typeof FIXES)[number]) =>
  `node --input-type=module -e '${(f.reproduction?.content ?? "").replaceAll('"../src/', '"./src/')}'`;

/** An agent that explores, reproduces (the command fails), edits, tests again (it passes) and submits. */
function investigation(f: (typeof FIXES)[number]): AgentScriptStep[] {
  const file = f.files[0]?.filename ?? "";
  const run: AgentScriptStep = { tool: "run", args: { command: reproduce(f) } };
  return [
    { tool: "search", args: { query: file.replace(/^.*\//, "").replace(/\.js$/, "") } },
    { tool: "open_file", args: { path: file } },
    run,
    ...f.files.map((e) => ({ tool: "edit", args: { path: e.filename, action: e.action, edits: e.edits ?? [] } })),
    run,
    { tool: "submit", args: { analysis: f.analysis, proposedSolution: f.proposedSolution, confidence: 85 } },
  ];
}

type Session = Awaited<ReturnType<BenchStack["signIn"]>>;

/** Stores the scripted set's issues for the signed-in user; answers their ids with their titles. */
async function storeIssues(bs: BenchStack, me: Session): Promise<{ id: string; title: string }[]> {
  const rows = FIXES.map((f) => {
    const seeded = seedIssue(f.issueNumber);
    return {
      issue_number: f.issueNumber,
      title: seeded?.title ?? f.title,
      body: seeded?.body ?? "",
      labels: [],
      assignees: [],
      state: "open",
      html_url: `https://github.com/${REPO}/issues/${f.issueNumber}`,
    };
  });
  await issues.upsertSynced(bs.db, me.userId, { id: null, githubId: await storedRepository(bs.db, REPO) }, rows);
  const stored = (await issues.listOwned(bs.db, me.userId)).filter((i) => i.repo_full_name === REPO);
  return rows.map((r) => {
    const found = stored.find((i) => i.issue_number === r.issue_number);
    if (!found) throw new Error(`issue ${REPO}#${r.issue_number} was not stored`);
    return { id: found.id, title: r.title };
  });
}

/**
 * Every issue in each mode, the modes interleaved per issue so both see the same machine load, and
 * their order alternated from one issue to the next (the first solve of an issue warms its caches).
 */
async function solveAll(bs: BenchStack, me: Session, ids: string[], modelId?: string): Promise<ModeSolve[]> {
  const out: ModeSolve[] = [];
  const deps = { api: bs.api, db: bs.db, headers: me.headers, timeoutMs: TIMEOUT_MS };
  for (const [n, id] of ids.entries())
    for (const mode of n % 2 ? [...MODES].reverse() : MODES) {
      const { runId, wallMs } = await startAndWait(deps, id, mode, modelId);
      const m = await measureRun(bs.db, runId, mode, wallMs);
      process.stderr.write(
        `  agent ${mode} ${id}: ${m.status}${m.endedBy ? ` (${m.endedBy})` : ""}, ${m.turns} turns, ${m.tokensIn}/${m.tokensOut} tokens, tools ${m.toolMs} ms${m.runExits.length ? ` (commands exited ${m.runExits.join(" → ")})` : ""}, step 4 ${m.step4Ms} ms, solve ${Math.round(m.wallMs)} ms, resolved ${m.resolved}\n`,
      );
      out.push(m);
    }
  return out;
}

const median = (xs: number[]) => percentile(xs, 50);

/** Per mode medians; Investigate beside the single pass of the same run. */
function scriptedFigures(done: ModeSolve[]): Figure[] {
  const of = (mode: RunMode) => done.filter((d) => d.mode === mode);
  const single = of("single");
  const inv = of("investigate");
  const section = `agent (scripted set, ${single.length} issues)`;
  const pair = (name: string, unit: string, pick: (d: ModeSolve) => number): Figure => ({
    section,
    name: `Investigate ${name}`,
    value: median(inv.map(pick)),
    unit,
    baseline: median(single.map(pick)),
    baselineName: "single pass",
  });
  const resolved = (xs: ModeSolve[]) => xs.filter((d) => d.resolved).length;
  return [
    pair("turns per solve (median)", "", (d) => d.turns),
    pair("input tokens per solve (median)", "", (d) => d.tokensIn),
    pair("output tokens per solve (median)", "", (d) => d.tokensOut),
    pair("tool time per solve (median)", "ms", (d) => d.toolMs),
    pair("step 4 wall time (median)", "ms", (d) => d.step4Ms),
    pair("solve wall time (median)", "ms", (d) => Math.round(d.wallMs)),
    {
      section,
      name: "Investigate resolved (verified, reproduction passes)",
      value: resolved(inv),
      unit: `of ${inv.length}`,
      baseline: resolved(single),
      baselineName: "single pass",
      target: "no worse than the single pass",
      holds: resolved(inv) >= resolved(single),
    },
  ];
}

/**
 * Point 6 with a provider key: the same issues against the real provider in both modes, resolved
 * share and cost per resolved issue. The bench machine has no network, so this path has never run
 * here; it reuses the measured path above and only the model differs (BENCH_AGENT_MODEL, by
 * default the product's default model).
 */
function realModelFigures(done: ModeSolve[]): Figure[] {
  const section = "agent (real model)";
  const per = (mode: RunMode) => {
    const xs = done.filter((d) => d.mode === mode);
    const ok = xs.filter((d) => d.resolved).length;
    const cost = xs.reduce((a, d) => a + d.costUsd, 0);
    return { share: xs.length ? (100 * ok) / xs.length : 0, perResolved: ok ? cost / ok : NaN };
  };
  const s = per("single");
  const i = per("investigate");
  return [
    {
      section,
      name: "Investigate resolved share",
      value: i.share,
      unit: "%",
      baseline: s.share,
      baselineName: "single pass",
    },
    {
      section,
      name: "Investigate cost per resolved issue",
      value: i.perResolved,
      unit: "USD",
      baseline: s.perResolved,
      baselineName: "single pass",
    },
  ];
}

/**
 * "agent": the scripted set (the seeded repository's three bugs) solved through the API and a
 * worker, each once in single pass and once in Investigate (explore, reproduce, edit, test,
 * submit, scripted on the model stand-in), with turns, tokens, tool time and wall time per solve
 * read from step 4's output and the ledger. With a provider key the stand-in is not started and
 * the same issues run against the real provider instead (point 6); offline it says it skipped that.
 */
export const agentSection: Section = {
  name: "agent",
  async run(ctx: BenchContext): Promise<Figure[]> {
    if (!bwrapAvailable()) {
      process.stderr.write("  agent: bwrap not found: the agent's sandboxed commands cannot run, section skipped\n");
      return [];
    }
    const bs = await startBenchStack(ctx, "agent");
    try {
      bs.startWorker();
      const github = bs.stack.sandboxes.github;
      if (!github) throw new Error("the bench stack has no GitHub stand-in");
      const me = await bs.signIn("hubot");
      await authorizeRepos(bs, github.url, "hubot", me);
      (github.control as GithubSandboxControl).clearRequestLog();
      const stored = await storeIssues(bs, me);
      const models = bs.stack.sandboxes.models?.control as ModelSandboxControl | undefined;
      if (!models) {
        const keys = KEYS.filter((k) => process.env[k]).join(", ");
        process.stderr.write(`  agent: ${keys} set: single pass vs Investigate against the real provider\n`);
        const done = await solveAll(
          bs,
          me,
          stored.map((s) => s.id),
          process.env.BENCH_AGENT_MODEL,
        );
        return realModelFigures(done);
      }
      FIXES.forEach((f, i) => {
        const title = stored[i]?.title ?? f.title;
        models.agentWith((task) => task.includes(title), investigation(f));
      });
      const done = await solveAll(
        bs,
        me,
        stored.map((s) => s.id),
      );
      const skipped = `agent: real-model comparison (single pass vs Investigate: resolved share, cost per resolved issue) skipped offline: no provider key (${KEYS.join(", ")}) is set, so step 4 is answered by the model stand-in`;
      process.stderr.write(`  ${skipped}\n`);
      ctx.appendix.push(skipped);
      return scriptedFigures(done);
    } finally {
      await bs.stop();
    }
  },
};
