import { z } from "zod";
import { BaseBranch, DECIDED_SOLUTION_STATUSES } from "@fixloop/contract";

/** Malformed ids are answered 404 by the lookup, like ids of other users' solutions. */
export const SolutionIdParam = z.object({ id: z.string().max(100) });
export type SolutionIdParam = z.infer<typeof SolutionIdParam>;

export const Modification = z.object({
  filename: z.string().min(1).max(1000),
  /** The file's content as the editor last saw it; a mismatch with the current revision is a conflict. */
  originalContent: z.string(),
  modifiedContent: z.string().max(2_000_000),
  reason: z.string().max(2000).optional(),
});
export type Modification = z.infer<typeof Modification>;

export const ModifyBody = z.object({
  modifications: z.array(Modification).min(1, "At least one modification is required").max(50),
  comments: z.string().max(5000).optional(),
});
export type ModifyBody = z.infer<typeof ModifyBody>;

export const RefineBody = z.object({
  feedback: z
    .string()
    .max(10_000)
    .refine((s) => s.trim().length > 0, "Feedback must not be blank"),
  refinementInstructions: z.string().max(10_000).optional(),
});
export type RefineBody = z.infer<typeof RefineBody>;

export const DecideBody = z.object({
  status: z.enum(DECIDED_SOLUTION_STATUSES),
  comments: z.string().max(5000).optional(),
  /** The base branch the reviewer confirms; one other than the solution's is refused (the tests ran there). */
  baseBranch: BaseBranch.optional(),
});
export type DecideBody = z.infer<typeof DecideBody>;
