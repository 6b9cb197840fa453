import { STEPS } from "@fixloop/contract";
import { seedIssues } from "./bench-seed";
import { startBenchStack } from "./bench-stack";
import { forkBench } from "./child";
import { loadGet, pool, type LoadResult } from "./load";
import type { Figure } from "./report";
import type { BenchContext, Section } from "./section.types";

const ISSUES = 100;
const CONCURRENCY = 50;
const ROUNDS = 3;
const SECONDS = 2;

async function pair(name: string, ours: () => Promise<LoadResult>, bare: () => Promise<LoadResult>): Promise<Figure[]> {
  const oursRounds: LoadResult[] = [];
  const bareRounds: LoadResult[] = [];
  for (let i = 0; i < ROUNDS; i++) {
    oursRounds.push(await ours());
    bareRounds.push(await bare());
  }
  const o = pool(oursRounds);
  const b = pool(bareRounds);
  if (o.errors || b.errors) process.stderr.write(`  api ${name}: ${o.errors} failed requests (bare ${b.errors})\n`);
  const s = `API (${CONCURRENCY} clients)`;
  const base = { section: s, baselineName: "bare Hono, same SQL" };
  return [
    {
      ...base,
      name: `${name} requests/s`,
      value: o.perSecond,
      unit: "req/s",
      baseline: b.perSecond,
      target: ">= 50% of bare",
      holds: o.perSecond >= 0.5 * b.perSecond,
    },
    { ...base, name: `${name} p99`, value: o.p99, unit: "ms", baseline: b.p99, target: "< 50 ms", holds: o.p99 < 50 },
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
      const headers = { cookie: me.headers.cookie };
      const go = (base: string, path: string) => () =>
        loadGet(`${base}${path}`, headers, { concurrency: CONCURRENCY, seconds: SECONDS });
      // Warm both servers (JIT, pools) before measuring.
      await go(bs.api, "/api/issues")().then(() => go(bareUrl, "/api/issues")());
      return [
        ...(await pair(`GET /api/issues (${ISSUES} issues)`, go(bs.api, "/api/issues"), go(bareUrl, "/api/issues"))),
        ...(await pair("GET /api/runs/:id", go(bs.api, `/api/runs/${run.id}`), go(bareUrl, `/api/runs/${run.id}`))),
      ];
    } finally {
      await bare.stop();
      await bs.stop();
    }
  },
};
