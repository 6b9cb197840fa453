import fs from "node:fs/promises";
import path from "node:path";
import type {
  FileChange,
  ReproductionResult,
  SolutionReproduction,
  StepInput,
  StepReproduction,
} from "@fixloop/contract";
import type { WorkerContext } from "../../../context";
import { DEFAULT_MODEL_ID, findModel, modelsConfigFromEnv } from "../../../models";
import { couldNotRun } from "../../../tests-run/compare";
import type { Prepared, TestsDeps } from "../../../tests-run/run-tests";
import type { StepEnv } from "../step";
import { askReproduction } from "./reproduction.request";
import { checkReproduction, reproductionFile, scoreReproduction, type KeptReproduction } from "./reproduction.run";

export interface Reproducing {
  /** What is stored with the solution (null: no test was written). */
  stored: SolutionReproduction | null;
  /** The step's line about it. */
  note: string;
  cost: { tokensIn: number; tokensOut: number; costUsd: number };
  /** A candidate's result on the kept test (null when none was kept). */
  score: (files: FileChange[]) => Promise<ReproductionResult | null>;
}

/** A file of the base tree, never through a symbolic link out of it (the tree is untrusted). */
async function readInside(root: string, file: string): Promise<string | null> {
  try {
    const [base, real] = await Promise.all([fs.realpath(root), fs.realpath(path.join(root, file))]);
    if (!real.startsWith(`${base}${path.sep}`) || !(await fs.stat(real)).isFile()) return null;
    return await fs.readFile(real, "utf8");
  } catch {
    return null;
  }
}

/**
 * Point 2 of the selection: before any candidate is generated (step 4), the model writes a test reproducing the
 * issue (it sees the issue, the test command, example tests and the likely files, never a candidate);
 * it is run on the base tree and kept only if it runs and fails there.
 */
export async function reproduce(
  {
    analyzing: a,
    context: c,
    dependencies: d,
  }: Pick<StepInput<"validating">, "analyzing" | "context" | "dependencies">,
  i: StepEnv,
  ctx: WorkerContext,
  deps: TestsDeps,
  ready: Prepared,
  timeoutMs: number,
): Promise<Reproducing> {
  const models = modelsConfigFromEnv(ctx.env);
  const model = findModel(models, i.run.model_id || DEFAULT_MODEL_ID);
  const nothing = { tokensIn: 0, tokensOut: 0, costUsd: 0 };
  if (!model) return { stored: null, note: "", cost: nothing, score: () => Promise.resolve(null) };
  // Base results that are no evidence (timed out, setup failed) would make the reproduction's check none either.
  // Run on its own, the reproduction test does not depend on the whole command's base results.
  const stopped = ready.selector ? null : couldNotRun(ready.base, timeoutMs);
  if (stopped)
    return {
      stored: null,
      note: `Reproduction test not asked: the tests did not run to the end on the base tree (${stopped.reason})`,
      cost: nothing,
      score: () => Promise.resolve(null),
    };
  const asked = await askReproduction({
    models,
    model,
    ...(i.meter ? { meter: i.meter } : {}),
    ...(i.onModelRetry ? { onRetry: i.onModelRetry } : {}),
    signal: i.signal,
    title: a.title,
    body: a.body,
    command: ready.plan.command,
    allPaths: c.allPaths,
    files: d.files.map((f) => ({ path: f.path, content: f.content })),
    read: (file) => readInside(ready.baseDir, file),
  });
  const cost = { tokensIn: asked.cost.tokensIn, tokensOut: asked.cost.tokensOut, costUsd: asked.cost.usd };
  if (!asked.test) return { stored: null, note: asked.note, cost, score: () => Promise.resolve(null) };
  const checked = await checkReproduction(deps, ready, asked.test, timeoutMs);
  const kept: KeptReproduction | null = checked.kept;
  return {
    stored: checked.stored,
    note: checked.stored.note,
    cost,
    score: async (files) =>
      kept ? { test: kept.file.filename, status: await scoreReproduction(deps, ready, kept, files, timeoutMs) } : null,
  };
}

/**
 * The reproduction test step 4 asked before generating (its cost is step 4's). With the sandbox's
 * deps and base tree, a kept test scores each candidate; without them it is only said.
 */
export function storedReproduction(
  s: StepReproduction,
  deps?: TestsDeps,
  ready?: Prepared,
  timeoutMs = 0,
): Reproducing {
  const test = s.test;
  const kept: KeptReproduction | null =
    test?.status === "kept" ? { file: reproductionFile(test), failing: test.failing } : null;
  return {
    stored: test,
    note: s.note,
    cost: { tokensIn: 0, tokensOut: 0, costUsd: 0 },
    score: async (files) =>
      kept && deps && ready
        ? { test: kept.file.filename, status: await scoreReproduction(deps, ready, kept, files, timeoutMs) }
        : null,
  };
}
