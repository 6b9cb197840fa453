import { assessChange, type ChangeValidation, type ValidateChangeInput } from "../../contract";
import { syntaxErrors } from "./syntax-check";

export type { ChangeValidation };

/** The contract's deterministic assessment, with the files parsed for syntax errors first. */
export async function validateChange(input: ValidateChangeInput): Promise<ChangeValidation> {
  const found: Record<string, string[]> = {};
  for (const f of input.files) {
    if (f.action !== "delete") found[f.filename] = await syntaxErrors(f.filename, f.content, f.originalContent);
  }
  return assessChange({ ...input, syntaxErrors: found });
}
