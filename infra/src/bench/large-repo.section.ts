import { spawnSync } from "node:child_process";
import path from "node:path";
import url from "node:url";
import { ROOT } from "../paths";
import type { Figure } from "./report";
import type { BenchContext, Section } from "./sections";
import { generateLargeRepo } from "./large-repo-gen";

const CHILD = path.join(path.dirname(url.fileURLToPath(import.meta.url)), "localize-child.ts");

interface ChildResult {
  cold: { ms: number; top: string[]; files: number };
  warm: { ms: number; top: string[] };
  maxRssMb: number;
}

function runChild(dir: string, title: string, body: string, mode: string): ChildResult {
  const r = spawnSync(path.join(ROOT, "node_modules/.bin/tsx"), [CHILD, dir, title, body, mode], {
    cwd: ROOT,
    encoding: "utf8",
    maxBuffer: 16 * 1024 * 1024,
    env: { ...process.env, NODE_OPTIONS: "--max-old-space-size=4096" },
  });
  if (r.status !== 0) throw new Error(`localize child failed: ${r.stderr.slice(-2000)}`);
  return JSON.parse(r.stdout.trim().split("\n").pop() ?? "{}") as ChildResult;
}

export const largeRepoSection: Section = {
  name: "large-repo",
  async run(ctx: BenchContext): Promise<Figure[]> {
    const gen0 = performance.now();
    const repo = generateLargeRepo(path.join(ctx.dir, "large-repo"));
    process.stderr.write(`  generated tree in ${((performance.now() - gen0) / 1000).toFixed(1)} s\n`);
    const ours = runChild(repo.dir, repo.issue.title, repo.issue.body, "localizer");
    const bm25 = runChild(repo.dir, repo.issue.title, repo.issue.body, "bm25");
    const s = "large repository (50k files)";
    return [
      {
        section: s,
        name: "cold time",
        value: ours.cold.ms / 1000,
        unit: "s",
        baseline: bm25.cold.ms / 1000,
        baselineName: "BM25 all files",
        target: "< 10 s",
        holds: ours.cold.ms < 10_000,
      },
      {
        section: s,
        name: "warm time",
        value: ours.warm.ms / 1000,
        unit: "s",
        baseline: bm25.cold.ms / 1000,
        baselineName: "BM25 all files",
        target: "< 2 s",
        holds: ours.warm.ms < 2_000,
      },
      {
        section: s,
        name: "peak memory",
        value: ours.maxRssMb,
        unit: "MiB",
        baseline: bm25.maxRssMb,
        baselineName: "BM25 all files",
        target: "< 1024 MiB",
        holds: ours.maxRssMb < 1024,
      },
      {
        section: s,
        name: "target file rank (1 = first)",
        value: ours.cold.top.indexOf(repo.target) + 1 || 99,
        unit: "",
        baseline: bm25.cold.top.indexOf(repo.target) + 1 || 99,
        baselineName: "BM25",
      },
    ];
  },
};
