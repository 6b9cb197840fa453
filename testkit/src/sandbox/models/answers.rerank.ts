import type { ChosenFiles } from "@fixloop/contract";
import type { SeededFix } from "../github/seed/seed.types";
import { promptFiles, seededSolution } from "./answers";

/**
 * The rerank answer: the files the seeded fix of the prompt's issue changes, when they are among
 * the listed files; otherwise the first listed file. Deterministic, so a test knows the outcome.
 */
export function chosenFiles(fixes: readonly SeededFix[], prompt: string): ChosenFiles {
  const listed = promptFiles(prompt).map((f) => f.path);
  const fixed = (seededSolution(fixes, prompt)?.files ?? []).map((f) => f.filename).filter((p) => listed.includes(p));
  const picks = fixed.length > 0 ? fixed : listed.slice(0, 1);
  return {
    files: picks.map((path) => ({
      path,
      reason: fixed.includes(path) ? "The reported behaviour is implemented here." : "Listed first; most likely place.",
    })),
  };
}
