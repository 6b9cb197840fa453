import {
  domain,
  type FileChange,
  fileDiffCounts,
  nameList,
  SolutionTests,
  solutionUnverifiedOf,
  unverifiedStatement,
  testsVerdict,
  SANDBOX_OFF_STATEMENT,
  testsNotRunSandboxOff,
  type DiffCounts,
} from "@fixloop/contract";
import type { Guidelines } from "./pull-requests.guidelines";
import { clip, codeSpan, inert, MAX_BODY_CHARS, plainTitle } from "./pull-requests.inert";

export interface BodyInput {
  issueNumber: number;
  issueTitle: string;
  /** `owner/repo` holding the issue, and the repository the pull request is opened on. */
  issueRepo: string;
  baseRepo: string;
  analysis: string;
  proposedSolution: string;
  model: string;
  confidence: number;
  files: FileChange[];
  metadata: Record<string, unknown>;
  reviewer: string;
}

type Part = "summary" | "changes" | "testing" | "fixes";

export function fixesLine(i: Pick<BodyInput, "issueNumber" | "issueRepo" | "baseRepo">): string {
  const same = i.issueRepo.toLowerCase() === i.baseRepo.toLowerCase();
  return same ? `Fixes #${i.issueNumber}` : `Fixes ${i.issueRepo}#${i.issueNumber}`;
}

/** The pull request's title, also its commit's subject: the issue's title with nothing GitHub would act on. */
export function prTitle(i: Pick<BodyInput, "issueNumber" | "issueTitle">, g: Guidelines): string {
  const title = plainTitle(i.issueTitle.trim().replace(/\s+/g, " ").slice(0, 120));
  if (g.conventionalCommits) return `fix: ${title.charAt(0).toLowerCase()}${title.slice(1)} (#${i.issueNumber})`;
  return `Fix #${i.issueNumber}: ${title}`;
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;

const counts = (c: { passed: number; failed: number; errored: number } | null) =>
  c ? `${c.passed} passed, ${c.failed} failed${c.errored ? `, ${c.errored} errored` : ""}` : "not run";
const names = (label: string, list: string[]) =>
  list.length
    ? [
        `  - ${label}: ${list
          .slice(0, 5)
          .map((n) => `\`${n}\``)
          .join(", ")}${list.length > 5 ? ` and ${list.length - 5} more` : ""}`,
      ]
    : [];

/** The test evidence in a few lines, led by the verdict in the tests panel's words (nothing when the solution predates test runs). */
export function testsSummary(raw: unknown): string[] {
  const parsed = SolutionTests.safeParse(raw);
  if (!parsed.success) return [];
  const t = parsed.data;
  const verdict = `- Tests: **${testsVerdict(t).text}**`;
  if (t.stale) return [`${verdict} (the tests ran on the generated change, before the manual edits)`];
  if (t.status === "skipped" || t.status === "error") return [verdict];
  const first = t.attempts[0];
  return [
    `${verdict} (\`${t.command ?? ""}\`, sandboxed); before the patch ${counts(t.base)}, after it ${counts(t.patched)}`,
    ...names("Fixed", t.fixed),
    ...names("New passing tests", t.added ?? []),
    ...names("Setup's network requests refused by the sandbox or unreachable", t.blockedHosts ?? []),
    ...(t.notes ?? []).map((n) => `  - ${n}`),
    ...(t.attempts.length > 1 && first
      ? [
          `  - One repair round ran after the first attempt's regressions (${nameList(first.regressions) || "test command failed"}); the ${t.kept === "repair" ? "repaired" : "first"} attempt is the one here`,
        ]
      : []),
  ];
}

const VERB = { create: "added", modify: "modified", delete: "deleted" } as const;

/** Lines added and removed as the diff view shows them (`+9 −1`). */
const delta = (c: DiffCounts) => `+${c.added} −${c.removed} lines`;

/** Says plainly that a model wrote the change and which person reviewed and approved it. */
export function disclosure(i: Pick<BodyInput, "model" | "confidence" | "reviewer">): string {
  return `---\n**AI assistance:** this change was generated with ${i.model} (confidence ${Math.round(i.confidence)}%) in Fixloop. Reviewed and approved by @${i.reviewer} before opening.`;
}

export function bodyParts(i: BodyInput): Record<Part, string> {
  const meta = i.metadata;
  const validation = (meta.validation ?? {}) as { riskLevel?: unknown; warnings?: string[] };
  const advanced = (meta.advancedValidation ?? {}) as { score?: number };
  const edits = Array.isArray(meta.manualEdits) ? meta.manualEdits.length : 0;
  const refinements = typeof meta.refinementCount === "number" ? meta.refinementCount : 0;
  const counts = i.files.map((f) => fileDiffCounts(f));
  const total = counts.reduce((t, c) => ({ added: t.added + c.added, removed: t.removed + c.removed }), {
    added: 0,
    removed: 0,
  });
  const testing = [
    `- Risk: ${domain.riskSummary(domain.resolveRiskLevel(validation.riskLevel, meta.riskScore))}`,
    `- Checks run: path policy (no CI, secrets or files outside the repository), change size (${plural(i.files.length, "file")}, ${delta(total)})` +
      (typeof advanced.score === "number" ? `, static validation (score ${advanced.score}/100)` : ""),
    ...testsSummary(meta.tests),
    ...(validation.warnings ?? []).slice(0, 5).map((w) => `- Warning: ${inert(String(w), 500)}`),
    `- Reviewed and approved by @${i.reviewer}${edits ? ` with ${edits} manual edit${edits === 1 ? "" : "s"}` : ""}${refinements ? ` after ${refinements} refinement${refinements === 1 ? "" : "s"}` : ""}`,
  ].join("\n");
  return {
    summary: `${inert(i.proposedSolution.trim())}\n\n### Analysis\n\n${inert(i.analysis.trim())}`,
    changes: i.files
      .map((f, n) => `- ${codeSpan(f.filename)} (${VERB[f.action]}, ${delta(counts[n] ?? fileDiffCounts(f))})`)
      .join("\n"),
    testing,
    fixes: fixesLine(i),
  };
}

const HEADINGS: Record<Part, string> = {
  summary: "Summary",
  changes: "Files changed",
  testing: "Validation",
  fixes: "Related issue",
};

export function classify(heading: string): Part | null {
  const h = heading.toLowerCase();
  if (/test|verif|validat|\bqa\b/.test(h)) return "testing";
  if (/issue|related|fixes|closes|ticket|link/.test(h)) return "fixes";
  if (/summary|description|what|overview|motivation|context|why|purpose/.test(h)) return "summary";
  if (/change|files|implementation/.test(h)) return "changes";
  return null;
}

/**
 * First line of a pull request that was to be a draft but is open as a regular one, because the
 * repository has no drafts (private repositories on GitHub Free and Pro): a reviewer on GitHub sees
 * no draft badge, so the body says it.
 */
export const DRAFT_REFUSED_NOTICE =
  "> [!WARNING]\n> **Not ready to merge: treat this pull request as a draft.** Fixloop asked GitHub for a draft, but this repository does not support draft pull requests, so it is open as a regular one.";

export interface BodyOptions {
  /** The repository refused a draft: the notice leads the body. */
  draftRefused?: boolean;
}

/** The pull request body; a repository template is filled section by section instead of replaced. */
export function prBody(i: BodyInput, g: Guidelines, o: BodyOptions = {}): string {
  const p = bodyParts(i);
  // An unverified solution says so next to the disclosure (never clipped away).
  const unverified = solutionUnverifiedOf(i.metadata.unverified);
  const statement = unverified
    ? `${unverifiedStatement({ reason: inert(unverified.reason, 1_000) }, !o.draftRefused)}\n\n`
    : "";
  const footer = `${statement}${disclosure(i)}`;
  const tests = SolutionTests.safeParse(i.metadata.tests);
  const untested =
    tests.success && testsNotRunSandboxOff(tests.data) ? `> [!CAUTION]\n> **${SANDBOX_OFF_STATEMENT}**\n\n` : "";
  const lead = `${o.draftRefused ? `${DRAFT_REFUSED_NOTICE}\n\n` : ""}${untested}`;
  if (!g.template) {
    const body = (["summary", "changes", "testing"] as const).map((k) => `## ${HEADINGS[k]}\n\n${p[k]}`).join("\n\n");
    return bounded(`${lead}${body}\n\n${p.fixes}`, footer);
  }
  const template = g.template.replace(/<!--[\s\S]*?-->/g, "").replace(/\r\n/g, "\n");
  const used = new Set<Part>();
  const out: string[] = [];
  let current: Part | null = null;
  for (const line of template.split("\n")) {
    const heading = /^#{1,6}\s+(.+)$/.exec(line);
    if (heading) {
      current = classify(heading[1] ?? "");
      if (out.length && out[out.length - 1] !== "") out.push("");
      out.push(line);
      if (current && !used.has(current)) {
        used.add(current);
        out.push("", p[current], "");
      } else current = null;
      continue;
    }
    // Prompt text under a section we filled is replaced; checklists and other sections are kept,
    // except the testing section's own checklist: the verdict line above answers it.
    if (current && (current === "testing" || !/^\s*[-*]\s+\[[ xX]\]/.test(line))) continue;
    out.push(line);
  }
  const rest = (["summary", "changes", "testing"] as const)
    .filter((k) => !used.has(k))
    .map((k) => `## ${HEADINGS[k]}\n\n${p[k]}`);
  const body = [
    out
      .join("\n")
      .replace(/\n{3,}/g, "\n\n")
      .trim(),
    ...rest,
  ].join("\n\n");
  const withFixes = used.has("fixes") ? body : `${body}\n\n${p.fixes}`;
  return bounded(`${lead}${withFixes}`, footer);
}

/** The body under GitHub's length limit, cut at a line end before the disclosure, which is always kept. */
function bounded(body: string, footer: string): string {
  return `${clip(body, MAX_BODY_CHARS - footer.length - 4)}\n\n${footer}\n`;
}
