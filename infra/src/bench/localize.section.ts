import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { evalDir, type LocalizationEvalResult, runLocalizationEval } from "./localize/eval";
import { type Fixture, loadFixtures, NONPY_DATA } from "./localize/fixtures";
import { type GroupFigures, groupFigures, groupTable } from "./localize/groups";
import { cvFigures, featureInstances, figures, TARGETS } from "./localize/figures";
import { largestMisses } from "./localize/misses";
import { benchModelStages } from "./localize/model-stages.bench";
import { configuredStages, type ModelStage } from "./localize/model-stages.config";
import { nonPyFigures, nonPyGroups } from "./localize/nonpy-sets";
import { rigorNotes } from "./localize/rigor";
import type { Figure } from "./report";
import type { BenchContext, Section } from "./section.types";

/** Repositories of the quick set: small trees, so `--set small` stays within a couple of minutes. */
const SMALL_REPOS = [
  "pallets/flask",
  "psf/requests",
  "marshmallow-code/marshmallow",
  "pytest-dev/pytest",
  "mwaskom/seaborn",
  "pylint-dev/astroid",
  "sqlfluff/sqlfluff",
];
const SMALL_PER_REPO = 3;
const DATA = path.join(evalDir(), "swe-bench-lite-tune.json");

interface Instance {
  instance_id: string;
  repo: string;
}

/** `small`: up to three instances of each small repository; `all`: every instance (the eval skips absent mirrors). */
function pickIds(set: string): string[] | undefined {
  if (set === "all") return undefined;
  const data = JSON.parse(fs.readFileSync(DATA, "utf8")) as Instance[];
  const ids: string[] = [];
  for (const repo of SMALL_REPOS)
    ids.push(
      ...data
        .filter((d) => d.repo === repo)
        .slice(0, SMALL_PER_REPO)
        .map((d) => d.instance_id),
    );
  return ids;
}

const log = (l: string) => process.stderr.write(`  ${l}\n`);

/**
 * The non-Python fixture set (JavaScript, TypeScript, Go, Rust): the issues whose text is the issue
 * as filed and the fix-commit messages, each with its own figures (never pooled), and recall rows
 * per language of the issue-text set. Instances whose repository has no mirror are skipped, each repository
 * with one line saying how to bring it.
 */
async function nonPython(
  ctx: BenchContext,
): Promise<{ figures: Figure[]; result?: LocalizationEvalResult; fixtures?: Fixture[] }> {
  const fixtures = await loadFixtures(NONPY_DATA);
  const result = await runLocalizationEval({
    mirrorRoot: ctx.mirrors,
    fixtures,
    outDir: path.join(ctx.dir, "loc-nonpy"),
    log,
  });
  const repoOf = new Map(fixtures.map((f) => [f.instance_id, f.repo]));
  const skipped = new Map<string, { n: number; reason: string }>();
  for (const s of result.skipped) {
    const repo = repoOf.get(s.id) ?? s.id;
    skipped.set(repo, { n: (skipped.get(repo)?.n ?? 0) + 1, reason: s.reason });
  }
  for (const [repo, { n, reason }] of skipped)
    log(`localize non-Python: ${n} issue(s) of ${repo} skipped (${reason}; fetch its mirror into ${ctx.mirrors})`);
  if (!result.instances) {
    log(`localize non-Python: no instance of ${NONPY_DATA} could be evaluated; skipped`);
    return { figures: [] };
  }
  return { figures: nonPyFigures(fixtures, result.perInstance), result, fixtures };
}

export const localizeSection: Section = {
  name: "localize",
  async run(ctx: BenchContext): Promise<Figure[]> {
    if (
      !ctx.mirrors ||
      !fs.existsSync(ctx.mirrors) ||
      !fs.readdirSync(ctx.mirrors).some((d) => fs.existsSync(path.join(ctx.mirrors, d, "repo")))
    ) {
      process.stderr.write(
        `  localize: no repository mirrors under "${ctx.mirrors}" (see shared/eval/README.md beside the project; pass --mirrors DIR or set MIRROR_ROOT); section skipped\n`,
      );
      return [];
    }
    // The optional model stages run only against a configured endpoint; offline, one line says so.
    const models = configuredStages(process.env);
    ctx.appendix.push(...models.notes);
    // `--set nonpy`: the non-Python set alone, without the SWE-bench instances.
    const swe = ctx.set === "nonpy" ? { figures: [] } : await sweBench(ctx, models.stages);
    if (models.stages.length && !swe.result)
      ctx.appendix.push(
        `localize: ${models.stages.map((s) => s.label).join(", ")} configured but not measured: they are measured on the SWE-bench set's cross-validated ranking, absent from this run`,
      );
    const nonPy = await nonPython(ctx);
    const groups: GroupFigures[] = [];
    if (swe.result) groups.push(...groupFigures(`swe-bench ${ctx.set}`, swe.result.perInstance, (r) => r.repo));
    if (nonPy.result && nonPy.fixtures) groups.push(...nonPyGroups(nonPy.fixtures, nonPy.result.perInstance));
    if (groups.length)
      ctx.appendix.push(groupTable("localize per repository (recall, ours vs plain BM25 in the same run)", groups));
    return [...swe.figures, ...nonPy.figures];
  },
};

async function sweBench(
  ctx: BenchContext,
  stages: readonly ModelStage[],
): Promise<{ figures: Figure[]; result?: LocalizationEvalResult }> {
  if (!fs.existsSync(DATA)) {
    process.stderr.write(
      `  localize: eval data ${DATA} not found (set FIXLOOP_EVAL_DIR to the folder holding swe-bench-lite-tune.json); SWE-bench set skipped\n`,
    );
    return { figures: [] };
  }
  const ids = pickIds(ctx.set);
  const result = await runLocalizationEval({
    mirrorRoot: ctx.mirrors,
    data: DATA,
    ...(ids ? { ids } : {}),
    outDir: path.join(ctx.dir, "loc"),
    log,
  });
  if (result.skipped.length)
    process.stderr.write(
      `  localize: ${result.skipped.length} instances skipped (${result.skipped[0]?.reason}, ...)\n`,
    );
  const ours = result.methods.localizer;
  const bm25 = result.methods.bm25;
  if (!result.instances || !ours || !bm25) {
    process.stderr.write("  localize: no SWE-bench instance could be evaluated; SWE-bench set skipped\n");
    return { figures: [] };
  }
  const name = `localize (${ctx.set} set, ${result.instances} issues)`;
  const out = figures(name, ours, bm25, true, " (in-sample: second stage fitted on the tune set)");
  const data = featureInstances(result.perInstance);
  const cv = cvFigures(name, data);
  out.push(...cv.figures);
  if (cv.cv) {
    const bm25Ranks = new Map(result.perInstance.map((r) => [r.id, r.ranks.bm25 ?? null]));
    ctx.appendix.push(rigorNotes(data, cv.cv, bm25Ranks).join("\n  "));
    ctx.appendix.push(
      ["localize: the five largest cross-validated misses", ...largestMisses(data, cv.cv)].join("\n  "),
    );
  }
  out.push(
    ...(await benchModelStages({
      stages,
      data,
      cv: cv.cv,
      instancesFile: DATA,
      mirrors: ctx.mirrors,
      appendix: ctx.appendix,
      log,
    })),
  );
  out.push(...(await cliFigures(ctx, ours.medianSeconds)));
  return { figures: out, result };
}

/** Issues of the django and sympy trees the CLI is timed on (five of each). */
function cliIds(): string[] {
  const data = JSON.parse(fs.readFileSync(DATA, "utf8")) as Instance[];
  return ["django/django", "sympy/sympy"].flatMap((repo) =>
    data
      .filter((d) => d.repo === repo)
      .slice(0, 5)
      .map((d) => d.instance_id),
  );
}

/** `npm run -s localize` in a fresh process per issue: module loading, grammars and threads included. */
async function cliFigures(ctx: BenchContext, inProcess: number): Promise<Figure[]> {
  const loadBefore = os.loadavg()[0] ?? 0;
  const result = await runLocalizationEval({
    mirrorRoot: ctx.mirrors,
    data: DATA,
    ids: cliIds(),
    methods: ["cli"],
    outDir: path.join(ctx.dir, "loc-cli"),
    log,
  });
  const cli = result.methods.cli;
  if (!result.instances || !cli) return [];
  // Fresh-process times depend on what else runs: say how loaded the machine was.
  ctx.appendix.push(
    `localize CLI: timed at a 1-minute load average of ${loadBefore.toFixed(1)} before and ${(os.loadavg()[0] ?? 0).toFixed(1)} after, on ${os.availableParallelism()} cores`,
  );
  return [
    {
      section: `localize CLI (${result.instances} django/sympy issues, fresh process each)`,
      name: "median time per issue (npm run -s localize)",
      value: cli.medianSeconds,
      unit: "s",
      baseline: inProcess,
      baselineName: "in-process median of the set above",
      target: `< ${TARGETS.medianS} s`,
      holds: cli.medianSeconds < TARGETS.medianS,
    },
    // What the runs cost whatever else the machine ran: on an idle core, about the time it takes.
    ...(cli.medianCpuSeconds === undefined
      ? []
      : [
          {
            section: `localize CLI (${result.instances} django/sympy issues, fresh process each)`,
            name: "median CPU time per issue (npm and the CLI, user + system)",
            value: cli.medianCpuSeconds,
            unit: "s",
          },
        ]),
  ];
}
