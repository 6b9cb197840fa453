import { z } from "zod";

/** The label the trigger watches unless the user picks another. */
export const DEFAULT_SOLVE_LABEL = "fixloop";

/**
 * A GitHub label name as GitHub accepts it: 1–50 characters after trimming, no commas (GitHub's
 * label lists are comma separated) and no control characters.
 */
export const LabelName = z
  .string()
  .trim()
  .min(1, "A label name needs at least one character")
  .max(50, "GitHub label names are at most 50 characters")
  .regex(/^[^,\p{Cc}]+$/u, "A label name may not contain commas or control characters");

/** Per-repository "solve issues labelled X" (GET/PUT /api/github/repositories/:owner/:repo/label-trigger). */
export const RepositoryLabelTrigger = z.object({
  enabled: z.boolean(),
  label: LabelName,
});
export type RepositoryLabelTrigger = z.infer<typeof RepositoryLabelTrigger>;

/** What started a run when no one pressed Solve. */
export const RunTrigger = z.enum(["label"]);
export type RunTrigger = z.infer<typeof RunTrigger>;
