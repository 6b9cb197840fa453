/**
 * Flags text in an issue that reads like instructions to the model rather than a description of
 * a problem. The prompt fences issue text as data either way; the flags tell the reviewer.
 */
import type { InstructionFlag } from "@fixloop/contract";

const PATTERNS: { label: string; re: RegExp }[] = [
  {
    label: "ignore previous instructions",
    re: /\b(?:ignore|disregard|forget|skip)\s+(?:all\s+|any\s+)?(?:of\s+)?(?:the\s+|your\s+|my\s+)?(?:previous|prior|above|earlier|preceding|original|existing)\s+(?:instructions?|prompts?|rules|directions|messages|context)\b/i,
  },
  {
    label: "ignore your instructions",
    re: /\b(?:ignore|disregard|forget|override|bypass)\s+(?:all\s+)?(?:your|the|these|those)\s+(?:instructions|rules|guidelines|guardrails|system\s+prompt)\b/i,
  },
  { label: "you are now", re: /\byou\s+are\s+now\b/i },
  { label: "system prompt", re: /\bsystem\s+prompt\b/i },
  { label: "new instructions", re: /\bnew\s+instructions?\s*:/i },
  { label: "act as / pretend", re: /\b(?:pretend\s+(?:to\s+be|you\s+are)|from\s+now\s+on,?\s+you)\b/i },
  { label: "role marker", re: /(?:^|\n)\s*(?:system|assistant|developer)\s*:|<\|im_start\|>|\[\/?INST\]/i },
  {
    label: "secret exfiltration",
    re: /\b(?:print|reveal|output|send|leak|post|exfiltrate|include)\s+(?:\w+\s+){0,3}(?:environment\s+variables|env\s+vars|secrets?|api[\s_-]?keys?|access\s+tokens?|credentials|\.env\b)/i,
  },
  { label: "jailbreak", re: /\b(?:jailbreak|do\s+anything\s+now|developer\s+mode)\b/i },
];

const CONTEXT = 40;

export function flagInstructions(text: string): InstructionFlag[] {
  const flags: InstructionFlag[] = [];
  for (const { label, re } of PATTERNS) {
    const global = new RegExp(re.source, re.flags.includes("g") ? re.flags : `${re.flags}g`);
    for (const m of text.matchAll(global)) {
      const start = Math.max(0, m.index - CONTEXT);
      const end = Math.min(text.length, m.index + m[0].length + CONTEXT);
      const excerpt = `${start > 0 ? "…" : ""}${text.slice(start, end).replace(/\s+/g, " ").trim()}${end < text.length ? "…" : ""}`;
      flags.push({ label, excerpt });
    }
  }
  return flags;
}
