/**
 * Localization eval on SWE-bench Lite instances (see shared/eval/README.md beside the project):
 *   tsx infra/src/bench/localize/eval.ts --mirror MIRROR_ROOT [--repos a/b,c/d] [--ids x,y]
 *     [--limit N] [--out /tmp/loc] [--share-cache] [--keep] [--json] [--nonpy]
 * (`--nonpy`: the JavaScript/TypeScript/Go/Rust fixture set of infra/bench-data instead).
 * Materializes each instance, runs the localizer and plain BM25 (each in its own process,
 * repository by repository) and prints recall@1/3/5/10, median/p95 seconds and peak RSS.
 */
import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { readFile, rm, writeFile } from "node:fs/promises";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs, promisify } from "node:util";
import { ROOT } from "../../paths";
import type { RescoreFeatures, SymbolCandidates } from "@fixloop/worker/localize";
import type { BatchItem, EvalMethod } from "./eval-child";
import { runMethod } from "./eval-run";
import { type Fixture, loadFixtures, materializeFixture, mirrorGitDir } from "./fixtures";

const run = promisify(execFile);
/**
 * The localization data folder: FIXLOOP_EVAL_DIR, else `shared/eval` beside the project root
 * (where the data ships).
 */
export function evalDir(): string {
  const candidates = [process.env.FIXLOOP_EVAL_DIR, resolve(ROOT, "../shared/eval")];
  return (
    candidates.find((d): d is string => !!d && existsSync(join(d, "swe-bench-lite-tune.json"))) ?? candidates[1] ?? ""
  );
}
const EVAL_DIR = evalDir();
export const SOURCES: Record<string, string> = {
  "django/django": "apprent1c3/django",
  "scikit-learn/scikit-learn": "Agent-Benchmarking/scikit-learn",
  "matplotlib/matplotlib": "williamlus/matplotlib",
  "pyvista/pyvista": "giiyms/pyvista",
};
const KS = [1, 3, 5, 10] as const;

export interface LocalizationEvalOptions {
  mirrorRoot: string;
  data?: string;
  /** Instances that carry their own gold paths (the non-Python set); replaces `data` when given. */
  fixtures?: Fixture[];
  repos?: string[];
  ids?: string[];
  limit?: number;
  outDir?: string;
  /** Reuse one LocalizeCache per repository across its issues. Default false (cold). */
  shareCache?: boolean;
  /** Keep materialized trees after the run. Default false. */
  keep?: boolean;
  methods?: EvalMethod[];
  log?: (line: string) => void;
}

export interface MethodFigures {
  recall: Record<`@${(typeof KS)[number]}`, number>;
  medianSeconds: number;
  /** Median CPU seconds per issue, where measured (the CLI: npm and the fresh process it starts). */
  medianCpuSeconds?: number;
  p95Seconds: number;
  peakRssMiB: number;
  /** Function-level recall@10: mean share of gold functions/classes in the first 10 ranked symbols. */
  symbolRecall10: number;
  /** Instances with at least one gold function/class. */
  symbolInstances: number;
}

export interface InstanceResult {
  id: string;
  repo: string;
  language?: string;
  gold: string[];
  ranks: Partial<Record<EvalMethod, number | null>>;
  seconds: Partial<Record<EvalMethod, number>>;
  cpuSeconds?: Partial<Record<EvalMethod, number>>;
  /** Function-level recall@10 per method (null: no gold function or class). */
  symbolRecall10?: Partial<Record<EvalMethod, number | null>>;
  /** The localizer's second-stage signals (candidates and gold files), to fit and cross-validate its weights. */
  features?: RescoreFeatures[];
  /** The localizer's files with their ranked symbols and the gold symbols, to fit the merge. */
  symbols?: { gold: string[]; files: SymbolCandidates[] };
}

export interface LocalizationEvalResult {
  instances: number;
  skipped: { id: string; reason: string }[];
  methods: Partial<Record<EvalMethod, MethodFigures>>;
  perInstance: InstanceResult[];
}

interface Instance {
  instance_id: string;
  repo: string;
  patch?: string;
  language?: string;
}

const quantile = (xs: number[], q: number): number => {
  if (xs.length === 0) return Number.NaN;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil(q * s.length) - 1))] ?? Number.NaN;
};

export async function runLocalizationEval(opts: LocalizationEvalOptions): Promise<LocalizationEvalResult> {
  const log = opts.log ?? (() => {});
  const outDir = opts.outDir ?? "/tmp/loc";
  const methods = opts.methods ?? ["localizer", "bm25"];
  const fixtures = new Map(opts.fixtures?.map((f) => [f.instance_id, f]));
  let data: Instance[] =
    opts.fixtures ??
    (JSON.parse(await readFile(opts.data ?? join(EVAL_DIR, "swe-bench-lite-tune.json"), "utf8")) as Instance[]);
  if (opts.repos) data = data.filter((d) => opts.repos?.includes(d.repo));
  if (opts.ids) data = data.filter((d) => opts.ids?.includes(d.instance_id));
  if (opts.limit !== undefined) data = data.slice(0, opts.limit);
  const skipped: LocalizationEvalResult["skipped"] = [];
  const byRepo = new Map<string, Instance[]>();
  for (const d of data) {
    const src = SOURCES[d.repo] ?? d.repo;
    if (!mirrorGitDir(opts.mirrorRoot, src)) {
      skipped.push({ id: d.instance_id, reason: `no mirror of ${src}` });
      continue;
    }
    byRepo.set(d.repo, [...(byRepo.get(d.repo) ?? []), d]);
  }
  const perInstance: InstanceResult[] = [];
  const rss: Partial<Record<EvalMethod, number>> = {};
  for (const [repo, instances] of byRepo) {
    const items: BatchItem[] = [];
    const gold = new Map<string, string[]>();
    for (const d of instances) {
      const id = d.instance_id;
      const fixture = fixtures.get(id);
      try {
        if (fixture) await materializeFixture(fixture, opts.mirrorRoot, outDir);
        else await run(join(EVAL_DIR, "materialize.sh"), [id, outDir, opts.mirrorRoot], { maxBuffer: 16 << 20 });
      } catch (err) {
        skipped.push({ id, reason: `materialize failed: ${String(err).slice(0, 200)}` });
        continue;
      }
      const goldPaths =
        fixture?.gold ?? (await readFile(join(outDir, `${id}.gold`), "utf8")).split("\n").filter(Boolean);
      gold.set(id, goldPaths);
      items.push({
        id,
        repo,
        gold: goldPaths,
        dir: join(outDir, id),
        issueFile: join(outDir, `${id}.issue.md`),
        ...(d.patch ? { patch: d.patch } : {}),
      });
    }
    const languages = new Map(instances.map((d) => [d.instance_id, d.language]));
    const rows = new Map(
      items.map((it) => {
        const language = languages.get(it.id);
        const row: InstanceResult = {
          id: it.id,
          repo,
          gold: gold.get(it.id) ?? [],
          ranks: {},
          seconds: {},
        };
        return [it.id, language ? { ...row, language } : row];
      }),
    );
    for (const method of methods) {
      const { lines, rss: r } = await runMethod(method, items, opts.shareCache ?? false);
      rss[method] = Math.max(rss[method] ?? 0, r);
      for (const line of lines) {
        const row = rows.get(line.id);
        if (!row) continue;
        const ranks = row.gold.map((g) => line.ranked.indexOf(g)).filter((k) => k >= 0);
        row.ranks[method] = ranks.length > 0 ? Math.max(...ranks) + 1 : null;
        row.seconds[method] = line.seconds;
        if (line.cpuSeconds !== undefined) row.cpuSeconds = { ...row.cpuSeconds, [method]: line.cpuSeconds };
        if (line.features) row.features = line.features;
        if (line.symbols) row.symbols = line.symbols;
        if (line.symbolRecall10 !== undefined)
          row.symbolRecall10 = { ...row.symbolRecall10, [method]: line.symbolRecall10 };
      }
    }
    for (const row of rows.values()) {
      perInstance.push(row);
      log(
        `${row.id}\t${methods.map((m) => `${m}=${row.ranks[m] ?? "-"} ${(row.seconds[m] ?? 0).toFixed(2)}s`).join("\t")}`,
      );
    }
    if (!opts.keep) for (const it of items) await rm(it.dir, { recursive: true, force: true });
  }
  return { instances: perInstance.length, skipped, methods: methodFigures(perInstance, methods, rss), perInstance };
}

/** Recall@k and time quantiles of each method over `rows` (a whole run, or one repository's or language's share). */
export function methodFigures(
  rows: readonly InstanceResult[],
  methods: readonly EvalMethod[],
  rss: Partial<Record<EvalMethod, number>> = {},
): LocalizationEvalResult["methods"] {
  const figures: LocalizationEvalResult["methods"] = {};
  for (const m of methods) {
    const done = rows.filter((r) => r.seconds[m] !== undefined);
    const recall = Object.fromEntries(
      KS.map((k) => [
        `@${k}`,
        done.filter((r) => {
          const rank = r.ranks[m];
          return rank != null && rank <= k;
        }).length / (done.length || 1),
      ]),
    ) as MethodFigures["recall"];
    const secs = done.map((r) => r.seconds[m] ?? 0);
    const cpu = done.flatMap((r) => (r.cpuSeconds?.[m] === undefined ? [] : [r.cpuSeconds[m] ?? 0]));
    const sym = done.flatMap((r) => (typeof r.symbolRecall10?.[m] === "number" ? [r.symbolRecall10[m] ?? 0] : []));
    figures[m] = {
      symbolRecall10: sym.reduce((a, b) => a + b, 0) / (sym.length || 1),
      symbolInstances: sym.length,
      recall,
      medianSeconds: quantile(secs, 0.5),
      ...(cpu.length > 0 ? { medianCpuSeconds: quantile(cpu, 0.5) } : {}),
      p95Seconds: quantile(secs, 0.95),
      peakRssMiB: Math.round((rss[m] ?? 0) / 1024),
    };
  }
  return figures;
}

/** One JSON line per instance: id, repo, gold paths, the localizer's rank and its second-stage signals. */
export async function writeFeatures(file: string, rows: readonly InstanceResult[]): Promise<void> {
  const lines = rows.flatMap((r) =>
    r.features
      ? [
          JSON.stringify({
            id: r.id,
            repo: r.repo,
            gold: r.gold,
            rank: r.ranks.localizer,
            rows: r.features,
            ...(r.symbols ? { symbols: r.symbols } : {}),
          }),
        ]
      : [],
  );
  await writeFile(file, `${lines.join("\n")}\n`);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const { values } = parseArgs({
    options: {
      mirror: { type: "string", default: process.env.MIRROR_ROOT ?? "" },
      repos: { type: "string" },
      ids: { type: "string" },
      limit: { type: "string" },
      out: { type: "string" },
      "share-cache": { type: "boolean" },
      keep: { type: "boolean" },
      json: { type: "boolean" },
      methods: { type: "string" },
      nonpy: { type: "boolean" },
      features: { type: "string" },
    },
  });
  const result = await runLocalizationEval({
    mirrorRoot: values.mirror,
    ...(values.repos ? { repos: values.repos.split(",") } : {}),
    ...(values.ids ? { ids: values.ids.split(",") } : {}),
    ...(values.limit ? { limit: Number(values.limit) } : {}),
    ...(values.out ? { outDir: values.out } : {}),
    ...(values.methods ? { methods: values.methods.split(",") as EvalMethod[] } : {}),
    ...(values.nonpy ? { fixtures: await loadFixtures() } : {}),
    shareCache: values["share-cache"] ?? false,
    keep: values.keep ?? false,
    log: (l) => process.stderr.write(`${l}\n`),
  });
  if (values.features) await writeFeatures(values.features, result.perInstance);
  const slim = result.perInstance.map(({ features: _, symbols: __, ...row }) => row);
  if (values.json) process.stdout.write(`${JSON.stringify({ ...result, perInstance: slim }, null, 2)}\n`);
  else {
    process.stdout.write(`instances: ${result.instances}, skipped: ${result.skipped.length}\n`);
    process.stdout.write("method      R@1   R@3   R@5   R@10  median_s  p95_s  peak_rss_MiB  fn_R@10\n");
    for (const [m, f] of Object.entries(result.methods)) {
      const r = f.recall;
      process.stdout.write(
        `${m.padEnd(10)} ${[r["@1"], r["@3"], r["@5"], r["@10"]].map((x) => x.toFixed(3)).join(" ")}  ${f.medianSeconds.toFixed(2).padStart(7)}  ${f.p95Seconds.toFixed(2).padStart(5)}  ${String(f.peakRssMiB).padStart(12)}  ${f.symbolRecall10.toFixed(3)} (${f.symbolInstances})\n`,
      );
    }
  }
}
