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

/** A GitHub login as a label's sender: a user (up to 39 characters) or an app's bot (`name[bot]`). */
export const SenderLogin = z
  .string()
  .trim()
  .regex(/^[A-Za-z0-9](?:[A-Za-z0-9-]{0,38})(?:\[bot\])?$/, "Not a GitHub login (a user, or an app's name[bot])");

/**
 * Per-repository "solve issues labelled X" (GET/PUT /api/github/repositories/:owner/:repo/label-trigger).
 * A label starts a solve only when its sender has write access to the repository on GitHub, or is
 * listed in `allowedSenders` (for bots and auto-labelers the user trusts).
 */
export const RepositoryLabelTrigger = z.object({
  enabled: z.boolean(),
  label: LabelName,
  allowedSenders: z.array(SenderLogin).max(20, "At most 20 allowed senders").default([]),
});
export type RepositoryLabelTrigger = z.infer<typeof RepositoryLabelTrigger>;

/** What started a run when no one pressed Solve. */
export const RunTrigger = z.enum(["label"]);
export type RunTrigger = z.infer<typeof RunTrigger>;

/** The last label trigger refused for its sender, shown with the repository's trigger settings. */
export const RefusedLabelTrigger = z.object({
  at: z.string(),
  issueNumber: z.number().int(),
  /** Who added the label; null when the repository sync found it (GitHub's list does not say who). */
  sender: z.string().nullable(),
  reason: z.string(),
});
export type RefusedLabelTrigger = z.infer<typeof RefusedLabelTrigger>;
