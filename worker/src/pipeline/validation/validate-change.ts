import { assessChange, type ChangeValidation, type ValidateChangeInput } from "../../contract";
import { syntaxErrorsOf } from "./syntax-check";

export type { ChangeValidation };

/** The contract's deterministic assessment, with the files parsed for syntax errors first. */
export async function validateChange(input: ValidateChangeInput): Promise<ChangeValidation> {
  return assessChange({ ...input, syntaxErrors: await syntaxErrorsOf(input.files) });
}
