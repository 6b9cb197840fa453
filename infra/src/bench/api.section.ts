import { STEPS } from "@fixloop/contract";
import { issues as issuesRepo } from "@fixloop/db";
import { seedIssues } from "./bench-seed";
import { startBenchStack } from "./bench-stack";
import { forkBench } from "./child";
import { loadGet, pool, type LoadResult } from "./load";
import { cpuMs } from "./proc-cpu";
import type { Figure } from "./report";
import type { BenchContext, Section } from "./section.types";

const ISSUES = 100;
const RUNS = 1000;
const SOLUTIONS = 200;
const CONCURRENCY = 50;
const ROUNDS = 3;
const SECONDS = 2;

interface Targets {
  perSecond: (ours: number, bare: number) => { target: string; holds: boolean };
  p99: (ours: number, bare: number) => { target: string; holds: boolean };
}

/** A side of a pair: a load round against one server, and the server's process (for its CPU time). */
interface Side {
  load: () => Promise<LoadResult>;
  pid: number | undefined;
}

async function round(side: Side): Promise<LoadResult & { cpuMs: number }> {
  const cpu0 = cpuMs(side.pid);
  const r = await side.load();
  return { ...r, cpuMs: cpuMs(side.pid) - cpu0 };
}

async function pair(name: string, ours: Side, bare: Side, t: Targets): Promise<Figure[]> {
  const oursRounds: (LoadResult & { cpuMs: number })[] = [];
  const bareRounds: (LoadResult & { cpuMs: number })[] = [];
  for (let i = 0; i < ROUNDS; i++) {
    oursRounds.push(await round(ours));
    bareRounds.push(await round(bare));
  }
  const o = pool(oursRounds);
  const b = pool(bareRounds);
  if (o.errors || b.errors) process.stderr.write(`  api ${name}: ${o.errors} failed requests (bare ${b.errors})\n`);
  // The server's CPU per request: what the code costs, whatever the neighbours are doing.
  const perRequest = (rounds: { cpuMs: number }[], r: LoadResult) =>
    rounds.reduce((n, x) => n + x.cpuMs, 0) / Math.max(1, r.latencies.length);
  const s = `API (${CONCURRENCY} clients)`;
  const base = { section: s, baselineName: "bare Hono, same SQL" };
  return [
    {
      ...base,
      name: `${name} requests/s`,
      value: o.perSecond,
      unit: "req/s",
      baseline: b.perSecond,
      ...t.perSecond(o.perSecond, b.perSecond),
    },
    { ...base, name: `${name} p99`, value: o.p99, unit: "ms", baseline: b.p99, ...t.p99(o.p99, b.p99) },
    {
      ...base,
      name: `${name} server CPU per request`,
      value: perRequest(oursRounds, o),
      unit: "ms",
      baseline: perRequest(bareRounds, b),
    },
  ];
}

export const apiSection: Section = {
  name: "api",
  async run(ctx: BenchContext): Promise<Figure[]> {
    const bs = await startBenchStack(ctx, "api");
    const bare = forkBench("bare-hono-child.ts", { DATABASE_URL: ctx.services.databaseUrl });
    try {
      const me = await bs.signIn("octocat");
      const { url: bareUrl } = await bare.next<{ url: string }>((m) => typeof m.url === "string");
      const issues = await seedIssues(
        bs.db,
        me.userId,
        Array.from({ length: ISSUES }, (_, i) => 100 + i),
        { labels: ["bug"] },
      );
      const issueId = issues[0] ?? "";
      const run = await bs.db
        .insertInto("solve_runs")
        .values({
          user_id: me.userId,
          issue_id: issueId,
          model_id: "bench",
          status: "completed",
          started_at: new Date(),
          finished_at: new Date(),
        })
        .returning("id")
        .executeTakeFirstOrThrow();
      await bs.db
        .insertInto("run_steps")
        .values(
          STEPS.map((step) => ({
            run_id: run.id,
            step,
            status: "completed" as const,
            detail: JSON.stringify({ files: ["src/a.ts"], info: ["done"], warnings: [] }),
            started_at: new Date(),
            finished_at: new Date(),
          })),
        )
        .execute();
      // The rest of the seed: RUNS runs and SOLUTIONS pending solutions spread over the issues, so
      // each per-issue lookup of the list has rows to find (and to skip).
      await bs.db
        .insertInto("solve_runs")
        .values(
          Array.from({ length: RUNS - 1 }, (_, i) => ({
            user_id: me.userId,
            issue_id: issues[i % ISSUES] ?? issueId,
            model_id: "bench",
            status: "completed" as const,
            input: JSON.stringify({ trigger: i % 2 ? "label" : "manual", triggerLabel: "fixloop" }),
          })),
        )
        .execute();
      await bs.db
        .insertInto("solutions")
        .values(
          Array.from({ length: SOLUTIONS }, (_, i) => ({
            user_id: me.userId,
            issue_id: issues[i % ISSUES] ?? issueId,
            status: (i < ISSUES ? "pending" : "approved") as "pending" | "approved",
            analysis: "bench",
            proposed_solution: "bench",
            ai_model: "bench",
          })),
        )
        .execute();
      const cost = await issuesRepo.listOwnedPlanCost(bs.db, me.userId);
      process.stderr.write(
        `  api seed: ${ISSUES} issues, ${RUNS} runs, ${SOLUTIONS} solutions; issue list plan total cost ${cost.toFixed(1)}\n`,
      );
      const headers = { cookie: me.headers.cookie };
      const go = (base: string, path: string) => () =>
        loadGet(`${base}${path}`, headers, { concurrency: CONCURRENCY, seconds: SECONDS });
      const ours = (path: string): Side => ({ load: go(bs.api, path), pid: bs.stack.api.proc.pid });
      const theirs = (path: string): Side => ({ load: go(bareUrl, path), pid: bare.proc.pid });
      // Warm both servers (JIT, pools) before measuring.
      await go(bs.api, "/api/issues")().then(() => go(bareUrl, "/api/issues")());
      return [
        ...(await pair(
          `GET /api/issues (${ISSUES} issues, ${RUNS} runs, ${SOLUTIONS} solutions, plan cost ${cost.toFixed(0)})`,
          ours("/api/issues"),
          theirs("/api/issues"),
          {
            perSecond: (o) => ({ target: ">= 500 req/s", holds: o >= 500 }),
            p99: (o) => ({ target: "< 100 ms", holds: o < 100 }),
          },
        )),
        ...(await pair("GET /api/runs/:id", ours(`/api/runs/${run.id}`), theirs(`/api/runs/${run.id}`), {
          perSecond: (o, b) => ({ target: ">= 0.9x bare", holds: o >= 0.9 * b }),
          p99: (o, b) => ({ target: "<= 1.5x bare", holds: o <= 1.5 * b }),
        })),
      ];
    } finally {
      await bare.stop();
      await bs.stop();
    }
  },
};
