import { type FileChange, installRiskReason } from "@fixloop/contract";
import type { TestPlan } from "./detect";
import { checkout, handToSandbox, writeInside, type WorkspaceCache } from "./workspace";

/** How a phase treats the plan's setup. */
export interface PhaseOptions {
  /** "offline": run it without network whatever the plan says; "skip": the tree is already set up. */
  setup?: "offline" | "skip";
  /** Called with the tree once setup succeeded, before the tests run. */
  afterSetup?: (dir: string) => Promise<void>;
}

/** A copy of the base tree taken right after its networked setup, kept for the run's patched phases. */
export interface SetUpBase {
  dir: string;
  dispose: () => Promise<void>;
}

export const SETUP_REUSED = (setup: string) =>
  `Setup \`${setup}\` ran with network on the base tree before the patch; that set-up tree is reused here, offline`;

/** Copies a tree that has just been set up (it lives under the cache's `runs/`, so a crash leaves it to the sweep). */
export async function snapshotSetUp(cache: WorkspaceCache, dir: string): Promise<SetUpBase> {
  return checkout(cache, dir);
}

/** Writes the patch into `dir` (never through a symlink or out of it) and hands the tree to `uid`. */
export async function applyPatch(dir: string, files: FileChange[], uid: number): Promise<void> {
  for (const f of files) await writeInside(dir, f.filename, f.action === "delete" ? null : f.content);
  await handToSandbox(dir, uid);
}

/** What the step says about a patch whose dependency changes were not installed. */
export function patchNotes(plan: TestPlan, files: FileChange[]): string[] {
  if (!plan.setup || !plan.setupNetwork) return [];
  const touched = files.filter((f) => installRiskReason(f)).map((f) => f.filename);
  return touched.length
    ? [
        `The patch changes ${touched.slice(0, 5).join(", ")}; setup was not re-run with network for it, so dependency changes were not installed for its tests`,
      ]
    : [];
}
