import { z } from "zod";

/** What cleaning took out of untrusted text: shown to the user beside the prompt. */
export const CleaningReportSchema = z.object({
  /** Each removed character as `U+XXXX` with how often it occurred. */
  hiddenCharacters: z.array(z.object({ codePoint: z.string(), count: z.number() })),
  htmlComments: z.array(z.string()),
  fenceTags: z.array(z.string()),
});
export type CleaningReport = z.infer<typeof CleaningReportSchema>;

export const InstructionFlagSchema = z.object({
  /** Which kind of instruction-like text was found. */
  label: z.string(),
  /** The matched text with some context, whitespace collapsed. */
  excerpt: z.string(),
});
export type InstructionFlag = z.infer<typeof InstructionFlagSchema>;

/** What the model saw for one generating step, stored with the step and shown on the validation page. */
export const PromptRecordSchema = z.object({
  model: z.object({ id: z.string(), name: z.string(), provider: z.string() }),
  system: z.string(),
  user: z.string(),
  files: z.array(z.object({ path: z.string(), reasons: z.array(z.string()) })),
  repoMap: z.string(),
  /** What cleaning took out of the issue text (title, body, labels, feedback). */
  removed: CleaningReportSchema,
  /** Instruction-like text found in the issue, hidden parts (HTML comments) included. */
  flags: z.array(InstructionFlagSchema),
  /** The cost of sending this prompt with a typical answer (`CostEstimate`). */
  estimate: z.object({ tokensIn: z.number(), tokensOut: z.number(), usd: z.number() }),
});
export type PromptRecord = z.infer<typeof PromptRecordSchema>;

/** A stored prompt record, or null when there is none or it does not have this shape. */
export function promptRecordOf(value: unknown): PromptRecord | null {
  const r = PromptRecordSchema.safeParse(value);
  return r.success ? r.data : null;
}
