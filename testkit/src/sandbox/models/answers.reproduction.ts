import type { ReproductionAnswer } from "@fixloop/contract";
import type { SeededFix } from "../github/seed/seed.types";
import { seededFixFor } from "./answers";

/**
 * The reproduction-test answer: the seeded fix's reproduction for the prompt's issue (it fails on
 * the base tree and passes with the fix), else an empty filename, as a model that cannot write one.
 */
export function reproductionAnswer(fixes: readonly SeededFix[], prompt: string): ReproductionAnswer {
  const r = seededFixFor(fixes, prompt)?.reproduction;
  return r
    ? { ...r, reason: "Checks the behaviour the issue reports." }
    : { filename: "", content: "", reason: "No reproduction test is scripted for this issue." };
}
