import type { Prepared } from "../../../../tests-run/run-tests";
import { sandboxRunUid, type SandboxLimits, type SandboxRunner } from "../../../../tests-run/sandbox";
import { phaseLimits } from "../../../../tests-run/tests.limits";
import { handToSandbox, type WorkspaceCache } from "../../../../tests-run/workspace";
import { checkoutWalled, type WalledCopy } from "../../../../tests-run/workspace.walled-copy";
import { scrubHostPaths } from "../../../../tests-run/workspace.cleanup";
import { tailOf, untrustedOutput } from "./agent.output";
import { PathRefused } from "./agent.paths";

/** Where an agent's command starts from: the base tree as the tests see it, and what the agent is told of it once. */
export interface CommandSource {
  dir: string;
  /** Said with the first command's output (how the tree was set up, or why it was not). */
  note: string | null;
}

export interface SetUpDeps {
  /** The base tree, its test plan and (after a networked setup) its set-up copy; null: no plan (or the sandbox is off). */
  prepared: Prepared | null;
  baseDir: string;
  runner: SandboxRunner | null;
  cache: WorkspaceCache;
  limits: SandboxLimits;
  onCleanupError?: (err: Error) => void;
}

/**
 * The tree the agent's `run` commands start from, prepared as the tests step prepares it: the
 * repository's setup (`.fixloop.yml` or the repository's test settings) done. A networked setup
 * already ran on the base tree before the reproduction test; its set-up copy is reused. An offline
 * setup runs once, in a walled copy of the base tree, the first time the agent runs a command (the
 * tests' limits and network, the run's signal). Each command then gets a private copy of that tree,
 * so no command changes what the next one starts from. A failed setup is said, and commands run on
 * the tree without it.
 */
export class AgentSetUp {
  private source: Promise<CommandSource> | null = null;
  private own: WalledCopy | null = null;
  private told = false;

  constructor(private readonly deps: SetUpDeps) {}

  /** The tree a command's copy is taken from; the note only on the first call. */
  async forCommand(signal: AbortSignal): Promise<CommandSource> {
    this.source ??= this.prepare(signal);
    const s = await this.source.catch((err: unknown) => {
      this.source = null; // a cancelled or failed preparation is tried again by the next command
      throw err;
    });
    const note = this.told ? null : s.note;
    this.told = true;
    return { dir: s.dir, note };
  }

  private async prepare(signal: AbortSignal): Promise<CommandSource> {
    const { prepared, runner } = this.deps;
    const plan = prepared?.plan;
    if (!prepared || !plan?.setup || !runner) return { dir: this.deps.baseDir, note: null };
    if (prepared.setUp)
      return {
        dir: prepared.setUp.dir,
        note: `Setup \`${plan.setup}\` ran with network on the base tree, as for the tests; commands run in copies of that set-up tree, offline`,
      };
    const limits = phaseLimits(this.deps.limits, plan);
    const ws = await checkoutWalled(this.deps.cache, prepared.baseDir, limits.diskBytes);
    try {
      const uid = sandboxRunUid();
      await handToSandbox(ws.dir, uid);
      const r = await runner.run({
        workspace: ws.dir,
        command: plan.setup,
        network: plan.setupNetwork,
        limits,
        signal,
        language: plan.language,
        uid,
      });
      if (r.exitCode === 0 && !r.timedOut && !r.cancelled) {
        this.own = ws;
        return {
          dir: ws.dir,
          note: `Setup \`${plan.setup}\` ran once on the base tree, as for the tests (exit code 0); commands run in copies of that set-up tree`,
        };
      }
      if (r.cancelled || signal.aborted)
        throw new PathRefused(
          `Setup \`${untrustedOutput(plan.setup, 300)}\` was stopped before it finished; the command did not run`,
        );
      const status = r.timedOut ? "timed out" : `exit code ${r.exitCode}`;
      const output = tailOf(scrubHostPaths(r.output, [this.deps.cache.root, ws.dir]), 1500);
      await ws.dispose().catch((err: Error) => this.deps.onCleanupError?.(err));
      return {
        dir: this.deps.baseDir,
        note: `Setup \`${plan.setup}\` failed (${status}); commands run on the tree without it. Its output:\n${output}`,
      };
    } catch (err) {
      if (this.own !== ws) await ws.dispose().catch((e: Error) => this.deps.onCleanupError?.(e));
      throw err;
    }
  }

  /** Removes the set-up copy this agent made (the networked one belongs to the step). */
  async dispose(): Promise<void> {
    const own = this.own;
    this.own = null;
    this.source = null;
    await own?.dispose().catch((err: Error) => this.deps.onCleanupError?.(err));
  }
}
