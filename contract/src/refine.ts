import { z } from "zod";

/** A hand edit of a solution's file, as solution metadata and refine runs carry it. */
export const ManualEdit = z.object({
  filename: z.string(),
  reason: z.string().optional(),
  /** The solution revision the edit made. */
  revision: z.number().optional(),
  at: z.string().optional(),
});
export type ManualEdit = z.infer<typeof ManualEdit>;

/**
 * A refine run's input (solve_runs.input): every refinement request of the solution so far,
 * newest last, and the hand edits the model should keep. The API writes it; the worker reads it.
 */
export const RefineInput = z.object({
  feedback: z.array(z.string()),
  manualEdits: z.array(ManualEdit),
  /** The solution's revision the refinement was started from. */
  fromRevision: z.number().optional(),
  /** The solution's status when the refinement started: pending, or pr_created when it addresses a review. */
  fromStatus: z.enum(["pending", "pr_created"]).optional(),
});
export type RefineInput = z.infer<typeof RefineInput>;

/** The hand edits in a stored list, skipping entries that are not edits. */
export function manualEditsOf(stored: unknown): ManualEdit[] {
  return (Array.isArray(stored) ? stored : []).flatMap((e) => {
    const r = ManualEdit.safeParse(e);
    return r.success ? [r.data] : [];
  });
}

/** A run's stored input read as a refinement (a solve run's input has none of it: empty lists). */
export function refineInputOf(stored: unknown): RefineInput {
  const o = z.record(z.string(), z.unknown()).safeParse(stored);
  const raw = o.success ? o.data : {};
  const feedback = Array.isArray(raw.feedback) ? raw.feedback.filter((f) => typeof f === "string") : [];
  const fromRevision = typeof raw.fromRevision === "number" ? { fromRevision: raw.fromRevision } : {};
  const status = RefineInput.shape.fromStatus.safeParse(raw.fromStatus);
  const fromStatus = status.success && status.data ? { fromStatus: status.data } : {};
  return { feedback, manualEdits: manualEditsOf(raw.manualEdits), ...fromRevision, ...fromStatus };
}

/**
 * Why a refinement's result may no longer replace the solution's files, or null when it may: the
 * solution was decided (approved, rejected, its pull request opened) or changed (a hand edit, a
 * candidate switch) after the refinement started from it. Its result was built from files and a
 * status that are gone, so writing it would replace what the reviewer decided on or changed.
 */
export function refineSupersededReason(
  solution: { status: string; revision: number },
  input: Pick<RefineInput, "fromRevision" | "fromStatus">,
): string | null {
  const from = input.fromStatus ?? (solution.status === "pr_created" ? "pr_created" : "pending");
  if (solution.status !== from)
    return `the solution was ${solution.status === "pr_created" ? "turned into a pull request" : solution.status} after this refinement started`;
  if (input.fromRevision !== undefined && solution.revision !== input.fromRevision)
    return `the solution changed (revision ${input.fromRevision} became ${solution.revision}) after this refinement started`;
  return null;
}

/** The newest refinement request of a run, if it is a refinement. */
export const latestFeedback = (stored: unknown): string | undefined => refineInputOf(stored).feedback.at(-1);
