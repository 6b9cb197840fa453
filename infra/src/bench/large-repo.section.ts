import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import url from "node:url";
import { ROOT } from "../paths";
import type { Figure } from "./report";
import type { BenchContext, Section } from "./section.types";
import { generateLargeRepo } from "./large-repo-gen";

const CHILD = path.join(path.dirname(url.fileURLToPath(import.meta.url)), "localize-child.ts");

interface Run {
  ms: number;
  top: string[];
}

interface ChildResult {
  cold: Run;
  warm: Run[];
  maxRssMb: number;
}

function runChild(dir: string, issuesFile: string, mode: string): ChildResult {
  const r = spawnSync(path.join(ROOT, "node_modules/.bin/tsx"), [CHILD, dir, issuesFile, mode], {
    cwd: ROOT,
    encoding: "utf8",
    maxBuffer: 16 * 1024 * 1024,
    env: { ...process.env, NODE_OPTIONS: "--max-old-space-size=4096" },
  });
  if (r.status !== 0) throw new Error(`localize child failed: ${r.stderr.slice(-2000)}`);
  return JSON.parse(r.stdout.trim().split("\n").pop() ?? "{}") as ChildResult;
}

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)] ?? NaN;

export const largeRepoSection: Section = {
  name: "large-repo",
  async run(ctx: BenchContext): Promise<Figure[]> {
    const gen0 = performance.now();
    const repo = generateLargeRepo(path.join(ctx.dir, "large-repo"));
    process.stderr.write(`  generated tree in ${((performance.now() - gen0) / 1000).toFixed(1)} s\n`);
    const issuesFile = path.join(ctx.dir, "large-repo-issues.json");
    fs.writeFileSync(issuesFile, JSON.stringify(repo.issues));
    const ours = runChild(repo.dir, issuesFile, "localizer");
    const bm25 = runChild(repo.dir, issuesFile, "bm25");
    const n = repo.issues.length;
    const s = `large repository (50k files, ${n} issues naming no symbol only the target defines)`;
    const base = { section: s, baselineName: "BM25 all files, same mode" };
    const hits = (r: ChildResult, k: number) =>
      r.warm.filter((w, i) => {
        const rank = w.top.indexOf(repo.issues[i]?.target ?? "");
        return rank >= 0 && rank < k;
      }).length / n;
    return [
      {
        ...base,
        name: "cold time (first issue, index built)",
        value: ours.cold.ms / 1000,
        unit: "s",
        baseline: bm25.cold.ms / 1000,
        target: "< 10 s",
        holds: ours.cold.ms < 10_000,
      },
      {
        ...base,
        name: "warm time (median over the issues, index cached)",
        value: median(ours.warm.map((w) => w.ms)) / 1000,
        unit: "s",
        baseline: median(bm25.warm.map((w) => w.ms)) / 1000,
        target: "< 2 s",
        holds: median(ours.warm.map((w) => w.ms)) < 2_000,
      },
      {
        ...base,
        name: "peak memory",
        value: ours.maxRssMb,
        unit: "MiB",
        baseline: bm25.maxRssMb,
        target: "< 1024 MiB",
        holds: ours.maxRssMb < 1024,
      },
      { ...base, name: "recall@1", value: hits(ours, 1), unit: "", baseline: hits(bm25, 1) },
      { ...base, name: "recall@5", value: hits(ours, 5), unit: "", baseline: hits(bm25, 5) },
    ];
  },
};
