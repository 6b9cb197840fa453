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
  fromRevision: z.number().optional(),
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
  return { feedback, manualEdits: manualEditsOf(raw.manualEdits), ...fromRevision };
}

/** The newest refinement request of a run, if it is a refinement. */
export const latestFeedback = (stored: unknown): string | undefined => refineInputOf(stored).feedback.at(-1);
