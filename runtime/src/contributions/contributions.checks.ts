import type { GithubClient } from "../github/github.client";
import { GithubError } from "../github/github.errors";
import { matchPolicy, type PolicyKind } from "./contributions.policy";
import { setupNetworkFinding } from "./contributions.setup-network";
import type { Finding, FindingCode, FindingSeverity } from "./contributions.findings";

export type { Finding, FindingCode, FindingSeverity } from "./contributions.findings";

/** Where repositories state their contribution rules, in the order they are shown. */
export const POLICY_FILES = [
  "CONTRIBUTING.md",
  ".github/CONTRIBUTING.md",
  "docs/CONTRIBUTING.md",
  "AI_POLICY.md",
  "AGENTS.md",
  ".github/PULL_REQUEST_TEMPLATE.md",
  ".github/pull_request_template.md",
];

export interface PolicyFile {
  path: string;
  text: string;
}

interface IssueLike {
  number: number;
  state: string;
  locked: boolean;
  assignees?: Array<{ login: string }> | null;
}

export interface ContributionTarget {
  owner: string;
  repo: string;
  issue: IssueLike;
  /** The GitHub login of the person who would contribute; being assigned to them is no warning. */
  login: string;
}

const POLICY: Record<PolicyKind, { code: FindingCode; severity: FindingSeverity; says: string }> = {
  refuse: { code: "ai_refused", severity: "blocking", says: "does not accept AI-assisted contributions" },
  "require-draft": {
    code: "ai_draft_required",
    severity: "warning",
    says: "asks for AI-assisted pull requests to be opened as drafts",
  },
  "require-disclosure": {
    code: "ai_disclosure_required",
    severity: "warning",
    says: "requires AI assistance to be disclosed",
  },
  note: { code: "ai_policy_note", severity: "note", says: "mentions AI-assisted contributions" },
};

const SEVERITY_ORDER: FindingSeverity[] = ["blocking", "warning", "note"];

/** The contribution rule files the repository has, read through the contents API (absent ones skipped). */
export async function readPolicyFiles(gh: GithubClient, owner: string, repo: string): Promise<PolicyFile[]> {
  const files = await Promise.all(
    POLICY_FILES.map(async (path) => {
      try {
        const res = await gh.rest.repos.getContent({ owner, repo, path, mediaType: { format: "raw" } });
        const text = typeof res.data === "string" ? res.data : "";
        return { path, text: text.slice(0, 100_000) };
      } catch (err) {
        if ((err as { status?: number }).status === 404) return null;
        throw err;
      }
    }),
  );
  return files.filter((f): f is PolicyFile => f !== null && f.text.trim() !== "");
}

/** An open pull request that references an issue, as GitHub's timeline shows it. */
export interface LinkedPull {
  number: number;
  htmlUrl: string;
  login: string;
  repoFullName: string;
  draft: boolean;
}

/** The open pull requests that reference the issue (GitHub's timeline cross-references), oldest first. */
export async function linkedOpenPullRequests(
  gh: GithubClient,
  owner: string,
  repo: string,
  issueNumber: number,
): Promise<LinkedPull[]> {
  const events = await gh.paginate(gh.rest.issues.listEventsForTimeline, {
    owner,
    repo,
    issue_number: issueNumber,
    per_page: 100,
  });
  const linked = new Map<string, LinkedPull>();
  for (const e of events) {
    if (!("event" in e) || e.event !== "cross-referenced" || !("source" in e)) continue;
    const source = e.source.issue;
    if (!source?.pull_request || source.state !== "open") continue;
    const repoFullName = source.repository_url.split("/repos/")[1] ?? "";
    linked.set(`${repoFullName}#${source.number}`.toLowerCase(), {
      number: source.number,
      htmlUrl: source.pull_request.html_url ?? source.html_url,
      login: source.user?.login ?? "ghost",
      repoFullName,
      draft: (source as { draft?: boolean }).draft === true,
    });
  }
  return [...linked.values()];
}

/** A pull request's short reference as seen from `owner/repo`: `#7`, or `other/repo#7`. */
export function pullReference(p: LinkedPull, owner: string, repo: string): string {
  return p.repoFullName.toLowerCase() === `${owner}/${repo}`.toLowerCase()
    ? `#${p.number}`
    : `${p.repoFullName}#${p.number}`;
}

/** References of the open pull requests that reference the issue (`#7`, `other/repo#7`). */
export async function linkedOpenPulls(
  gh: GithubClient,
  owner: string,
  repo: string,
  issueNumber: number,
): Promise<string[]> {
  return (await linkedOpenPullRequests(gh, owner, repo, issueNumber)).map((p) => pullReference(p, owner, repo));
}

/** What the policy files say, one finding per kind and file, quoting the first sentence that says it. */
export function policyFindings(files: PolicyFile[]): Finding[] {
  const findings: Finding[] = [];
  for (const file of files) {
    const seen = new Set<PolicyKind>();
    for (const statement of matchPolicy(file.text)) {
      if (seen.has(statement.kind)) continue;
      seen.add(statement.kind);
      const p = POLICY[statement.kind];
      findings.push({
        code: p.code,
        severity: p.severity,
        message: `${file.path} ${p.says}: "${statement.sentence}"`,
        source: { path: file.path, sentence: statement.sentence },
      });
    }
  }
  return findings;
}

/**
 * Checks an external issue before anyone works on it: open, not locked, not assigned to someone
 * else, no open pull request linked to it, and what the repository's contribution rules say about AI.
 */
export async function checkContribution(gh: GithubClient, t: ContributionTarget): Promise<Finding[]> {
  const [files, linked, network] = await Promise.all([
    readPolicyFiles(gh, t.owner, t.repo),
    linkedOpenPulls(gh, t.owner, t.repo, t.issue.number),
    setupNetworkFinding(gh, t.owner, t.repo, t.login),
  ]);
  const findings: Finding[] = [];
  if (t.issue.state === "closed")
    findings.push({
      code: "closed",
      severity: "blocking",
      message: "This issue is closed: the maintainers no longer expect a fix for it",
    });
  if (t.issue.locked)
    findings.push({
      code: "locked",
      severity: "blocking",
      message: "This issue is locked: the maintainers have closed it to outside contributions",
    });
  const others = (t.issue.assignees ?? []).map((a) => a.login).filter((l) => l.toLowerCase() !== t.login.toLowerCase());
  if (others.length)
    findings.push({
      code: "assigned",
      severity: "warning",
      message: `This issue is assigned to ${others.join(", ")}; ask before working on it`,
    });
  if (linked.length)
    findings.push({
      code: "linked_pull_request",
      severity: "warning",
      message: `An open pull request already references this issue: ${linked.join(", ")}`,
    });
  findings.push(...policyFindings(files));
  if (network) findings.push(network);
  return findings.sort((a, b) => SEVERITY_ORDER.indexOf(a.severity) - SEVERITY_ORDER.indexOf(b.severity));
}

/** Refuses an import the findings rule out, or one whose warnings were not acknowledged. */
export function assertImportAllowed(findings: Finding[], acknowledgeWarnings: boolean): void {
  const blocking = findings.filter((f) => f.severity === "blocking");
  if (blocking.length)
    throw new GithubError(
      "contributions.blocked",
      `This issue cannot be imported. ${blocking.map((f) => f.message).join(". ")}`,
      409,
    );
  const warnings = findings.filter((f) => f.severity === "warning");
  if (warnings.length && !acknowledgeWarnings) {
    throw new GithubError(
      "contributions.acknowledgement_required",
      `Acknowledge the warnings before importing (acknowledgeWarnings: true). ${warnings.map((f) => f.message).join(". ")}`,
      422,
    );
  }
}
