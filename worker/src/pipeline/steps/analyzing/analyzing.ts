import { type StepDetail, ISSUE_TYPES, type AnalyzingOutput, type Complexity, type IssueType } from "@fixloop/contract";
import { sanitizeUntrusted } from "../generating/prompt";

export interface AnalyzingInput {
  title: string;
  body: string | null;
  labels: string[];
}

const LABEL_TYPES: [RegExp, IssueType][] = [
  [/secur|vulnerab|cve/i, "security"],
  [/perf|slow|speed|memory/i, "performance"],
  [/bug|defect|crash|regression|broken|error/i, "bug"],
  [/doc/i, "docs"],
  [/refactor|cleanup|clean-up|tech.?debt/i, "refactor"],
  [/^tests?$|testing|coverage/i, "test"],
  [/chore|dependenc|deps|ci|build|maintenance/i, "chore"],
  [/feat|enhancement|improvement|request/i, "feature"],
];

const TEXT_SIGNALS: Record<IssueType, RegExp> = {
  security: /\b(xss|csrf|injection|vulnerab\w*|exploit|secret|leak|cve-\d+|unsafe)\b/gi,
  performance: /\b(slow|latency|performance|memory leak|cpu|timeout|takes \d+\s?(ms|s|seconds))\b/gi,
  bug: /\b(bug|error|exception|crash\w*|fails?|failing|broken|wrong|incorrect|traceback|stack trace|undefined|null|nan|regression|expected|actual)\b/gi,
  // "docstring" and "the documentation says" appear in bug reports that quote the promised behaviour.
  docs: /\b(docs?|documentation|readme|typo|spelling)\b/gi,
  // Not bare "simplify"/"duplicate": sympy's simplify() and "duplicate rows" are behaviour, not code shape.
  refactor: /\b(refactor\w*|clean ?up|duplicated code|code duplication|simplify the (code|implementation)|rename)\b/gi,
  test: /\b(tests?|coverage|flaky|unit test|spec)\b/gi,
  chore: /\b(bump|upgrade|dependenc\w*|lint\w*|ci|tooling)\b/gi,
  feature: /\b(add|support|feature|allow|option|would be nice|proposal|new)\b/gi,
};

/** Types that change no product behaviour: a report of wrong behaviour is never one of them. */
const NON_CODE: ReadonlySet<IssueType> = new Set(["docs", "refactor", "test", "chore"]);

/**
 * Text that reports observed wrong behaviour: a traceback, an interactive session, a raised
 * exception, a result said to differ from the expected one. Mentioning a docstring, a test or a
 * clean-up elsewhere in such a report does not make it a documentation, test or refactoring task.
 */
const WRONG_BEHAVIOUR = [
  /traceback \(most recent call last\)/i,
  /^\s*(>>>|In \[\d+\]:)/m,
  /\b[A-Z]\w*(Error|Exception)\b/,
  /\b(returns?|returned|gives?|gave|produces?|produced|outputs?|evaluates? to|raises?|results? in|prints?|shows?)\b[^\n]{0,120}\b(instead|but|should|expected|wrong|incorrect)\b/i,
  /\b(should (be|return|give|produce|raise|not)|expected (output|result|behaviou?r)|actual (output|result|behaviou?r)|(does not|doesn'?t|no longer|fails? to) work|not working|incorrect(ly)?|wrong (result|answer|output|value))\b/i,
];

function classifyType(title: string, body: string, labels: string[]): { type: IssueType; why: string } {
  for (const l of labels) for (const [re, t] of LABEL_TYPES) if (re.test(l)) return { type: t, why: `label "${l}"` };
  const text = `${title}\n${title}\n${body}`;
  let best: IssueType = "bug";
  let bestScore = 0;
  for (const t of ISSUE_TYPES) {
    const n = text.match(TEXT_SIGNALS[t])?.length ?? 0;
    // Security and performance words are rarer and more telling than generic ones.
    const score = n * (t === "security" || t === "performance" ? 2 : 1);
    if (score > bestScore) {
      best = t;
      bestScore = score;
    }
  }
  if (NON_CODE.has(best)) {
    const shown = WRONG_BEHAVIOUR.find((re) => re.test(text));
    if (shown) return { type: "bug", why: `the text reports wrong behaviour (${best} words alone do not decide)` };
  }
  return { type: best, why: bestScore ? `${bestScore} keyword signal(s) in the text` : "no clear signal; assumed bug" };
}

function classifyComplexity(body: string, type: IssueType): { complexity: Complexity; why: string } {
  const paths = new Set(body.match(/[\w./-]+\.[a-z]{1,5}\b/gi) ?? []).size;
  const blocks = (body.match(/```/g)?.length ?? 0) / 2;
  let points = 0;
  if (body.length > 1500) points += 2;
  else if (body.length > 400) points += 1;
  if (paths > 3) points += 2;
  else if (paths > 1) points += 1;
  if (blocks >= 2) points += 1;
  if (/\b(architecture|redesign|migrat\w*|across|multiple|every|rewrite)\b/i.test(body)) points += 2;
  if (/\b(typo|one.?line|simple|small|minor|rename)\b/i.test(body) || type === "docs") points -= 1;
  if (type === "security") points += 1;
  const complexity: Complexity = points >= 4 ? "complex" : points >= 1 ? "medium" : "simple";
  return {
    complexity,
    why: `${body.length} characters, ${paths} path(s) mentioned, ${Math.floor(blocks)} code block(s)`,
  };
}

/** Step 1: cleans the untrusted issue text, then classifies type and complexity from labels and text. */
export async function analyzing(input: AnalyzingInput): Promise<{ output: AnalyzingOutput; detail: StepDetail }> {
  const rawLength = input.title.length + (input.body ?? "").length;
  const title = sanitizeUntrusted(input.title);
  const body = sanitizeUntrusted(input.body ?? "");
  const labels = input.labels.map(sanitizeUntrusted).filter(Boolean);
  const removed = rawLength - title.length - body.length;
  const type = classifyType(title, body, labels);
  const complexity = classifyComplexity(body, type.type);
  const warnings: string[] = [];
  if (!body) warnings.push("The issue has no description; the fix relies on the title alone");
  if (removed > 0 && /<!--|[\u200B-\u200F\u202A-\u202E\u2066-\u2069]/.test(`${input.title}${input.body ?? ""}`)) {
    warnings.push("Hidden characters or HTML comments were removed from the issue text before analysis");
  }
  const info = [
    `Type: ${type.type} (${type.why})`,
    `Complexity: ${complexity.complexity} (${complexity.why})`,
    labels.length ? `Labels: ${labels.join(", ")}` : "No labels",
  ];
  const score = Math.max(40, Math.min(100, 60 + (labels.length ? 20 : 0) + (body.length > 80 ? 20 : body ? 10 : 0)));
  return {
    output: {
      classification: { type: type.type, complexity: complexity.complexity },
      title,
      body,
      labels,
      removedCharacters: Math.max(0, removed),
    },
    detail: { files: [], info, warnings, score },
  };
}
