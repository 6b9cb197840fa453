import type { CostEstimate } from "./models/models.pricing";

/** What cleaning took out of untrusted text: shown to the user beside the prompt. */
export interface CleaningReport {
  /** Each removed character as `U+XXXX` with how often it occurred. */
  hiddenCharacters: { codePoint: string; count: number }[];
  htmlComments: string[];
  fenceTags: string[];
}

export interface InstructionFlag {
  /** Which kind of instruction-like text was found. */
  label: string;
  /** The matched text with some context, whitespace collapsed. */
  excerpt: string;
}

/** What the model saw for one generating step, stored with the step and shown on the validation page. */
export interface PromptRecord {
  model: { id: string; name: string; provider: string };
  system: string;
  user: string;
  files: { path: string; reasons: string[] }[];
  repoMap: string;
  /** What cleaning took out of the issue text (title, body, labels, feedback). */
  removed: CleaningReport;
  /** Instruction-like text found in the issue, hidden parts (HTML comments) included. */
  flags: InstructionFlag[];
  estimate: CostEstimate;
}
