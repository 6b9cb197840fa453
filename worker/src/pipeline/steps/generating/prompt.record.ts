import type { CleaningReport, CostEstimate, InstructionFlag, ModelInfo, PromptRecord } from "@fixloop/contract";
import { flagInstructions } from "./prompt.flags";
import { cleanUntrusted, type PromptInput } from "./prompt";

export interface RawIssueText {
  title: string;
  body: string;
  labels: string[];
  feedback: string[];
}

function mergeReports(reports: CleaningReport[]): CleaningReport {
  const hidden = new Map<string, number>();
  for (const r of reports)
    for (const h of r.hiddenCharacters) hidden.set(h.codePoint, (hidden.get(h.codePoint) ?? 0) + h.count);
  return {
    hiddenCharacters: [...hidden].map(([codePoint, count]) => ({ codePoint, count })),
    htmlComments: reports.flatMap((r) => r.htmlComments),
    fenceTags: reports.flatMap((r) => r.fenceTags),
  };
}

/** Cleaning report and instruction flags over the issue as its author wrote it. */
export function inspectIssue(raw: RawIssueText): { removed: CleaningReport; flags: InstructionFlag[] } {
  const texts = [raw.title, raw.body, ...raw.labels, ...raw.feedback];
  const removed = mergeReports(texts.map((t) => cleanUntrusted(t).removed));
  // Comment markers go, their text stays: instructions hidden in a comment are the ones to flag.
  const readable = texts.map((t) => cleanUntrusted(t.replace(/<!--|-->/g, " ")).text).join("\n");
  return { removed, flags: flagInstructions(readable) };
}

export function promptRecord(o: {
  model: ModelInfo;
  system: string;
  user: string;
  input: PromptInput;
  raw: RawIssueText;
  estimate: CostEstimate;
}): PromptRecord {
  return {
    model: { id: o.model.id, name: o.model.name, provider: o.model.provider },
    system: o.system,
    user: o.user,
    files: o.input.files.map((f) => ({ path: f.path, reasons: f.reasons })),
    repoMap: o.input.repoMap,
    ...inspectIssue(o.raw),
    estimate: o.estimate,
  };
}
