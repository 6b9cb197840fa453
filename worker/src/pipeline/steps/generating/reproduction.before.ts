import path from "node:path";
import type { StepInput, StepReproduction } from "@fixloop/contract";
import type { WorkerContext } from "../../../context";
import { disposePrepared, type Prepared } from "../../../tests-run/run-tests";
import { testsConfig, testsDeps } from "../../../tests-run/tests.config";
import { phaseLimits } from "../../../tests-run/tests.limits";
import { scrubHostPaths } from "../../../tests-run/workspace.cleanup";
import { RunCancelled } from "../../run.errors";
import type { StepEnv } from "../step";
import { keepPrepared, prepareBase } from "../validating/base-tree";
import { reproduce } from "../validating/reproduction.step";

const NOTHING = { tokensIn: 0, tokensOut: 0, costUsd: 0 };
const notAsked = (why: string): StepReproduction => ({
  test: null,
  note: `Reproduction test not asked: ${why}`,
  ...NOTHING,
});

/**
 * Step 4, before any candidate is generated: the base tree is prepared (in the sandbox, as step 5
 * does) and the model is asked for a test reproducing the issue; it is kept only if it runs and
 * fails there. Null when the sandbox is off (no test can be checked). Never fails the run except
 * when it is cancelled; the prepared tree is left for step 5 of this run.
 *
 * `hold` (Investigate) receives the prepared base (its test plan and, after a networked setup, the
 * set-up tree) for the agent's commands; the caller then disposes of it with `disposePrepared`.
 */
export async function reproduceBeforeFix(
  input: StepInput<"generating">,
  i: StepEnv,
  ctx: WorkerContext,
  say: (line: string) => Promise<void>,
  hold?: (prepared: Prepared) => void,
): Promise<StepReproduction | null> {
  const cfg = testsConfig(ctx.env);
  if (!cfg.runner) return null;
  const deps = testsDeps(cfg, ctx, {
    emit: (e) => i.onTestsEvent?.(e) ?? Promise.resolve(),
    signal: i.signal,
    onCleanupError: (err) =>
      ctx.logger.warn({ runId: i.run.id, err: String(err.cause ?? err.message) }, "workspace cleanup failed"),
  });
  /** A workspace or GitHub failure, logged, and said without host paths. */
  const failed = (err: unknown) => {
    ctx.logger.warn({ runId: i.run.id, err: (err as Error).message }, "reproduction test before the fix failed");
    return scrubHostPaths((err as Error).message, [cfg.cache.root, path.resolve(ctx.env.FIXLOOP_DATA_DIR)]);
  };
  await say("Running the repository's tests on the base tree, to check a reproduction test before the fix");
  let prepared: Prepared | { reason: string };
  try {
    prepared = await prepareBase(deps, cfg, input, i, ctx);
  } catch (err) {
    if (i.signal.aborted) throw new RunCancelled();
    return notAsked(`the base tree could not be prepared (${failed(err)})`);
  }
  if (i.signal.aborted || ("base" in prepared && prepared.base.cancelled)) throw new RunCancelled();
  if ("reason" in prepared) return notAsked(prepared.reason);
  let held = false;
  try {
    await say("Asking the model for a test that reproduces the issue (it must fail on the base tree)");
    const timeoutMs = phaseLimits(cfg.limits, prepared.plan).timeoutMs;
    // A workspace failure while checking the test leaves the fix to be generated (step 5 tries the tree again).
    const r = await reproduce(input, i, ctx, deps, prepared, timeoutMs).catch((err: unknown) => {
      if (i.signal.aborted) throw new RunCancelled();
      return { stored: null, note: `Reproduction test not checked: ${failed(err)}`, cost: NOTHING };
    });
    if (i.signal.aborted) throw new RunCancelled();
    keepPrepared(i.run.id, prepared);
    hold?.(prepared);
    held = !!hold;
    if (!r.note) return null; // no model configured: the generation says so
    await say(r.note);
    return { test: r.stored, note: r.note, ...r.cost };
  } finally {
    if (!held) await disposePrepared(prepared, deps.onCleanupError);
  }
}
