import { matchPolicy, type GithubClient } from "@fixloop/runtime";
import type { TreeEntryLike } from "./pull-requests.limits";
import { readBlob, type RepoRef } from "./pull-requests.tree";

/** Where GitHub looks for a pull request template, in its order of preference. */
const TEMPLATE_PATHS = [
  ".github/pull_request_template.md",
  "pull_request_template.md",
  "docs/pull_request_template.md",
];
const CONTRIBUTING_PATHS = [
  ".github/contributing.md",
  "contributing.md",
  "docs/contributing.md",
  "contributing.rst",
  "contributing.txt",
  "contributing",
];
/** Directories whose entries must be known to find the files above. */
export const GUIDELINE_DIRS = [".github/x", "docs/x", ".github/pull_request_template/x"];

export interface Guidelines {
  template: string | null;
  contributing: string | null;
  conventionalCommits: boolean;
  signOff: boolean;
  /** The rules ask for AI-assisted pull requests to be opened as drafts. */
  draftRequired: boolean;
}

function find(entries: Map<string, TreeEntryLike>, candidates: string[]): TreeEntryLike | undefined {
  const byLower = new Map(
    [...entries.values()].filter((e) => e.type === "blob" && e.path).map((e) => [e.path?.toLowerCase() ?? "", e]),
  );
  for (const c of candidates) {
    const hit = byLower.get(c);
    if (hit) return hit;
  }
  // Multiple templates: GitHub offers a chooser; the first one in name order is the plain default.
  return [...byLower.entries()]
    .filter(([p]) => p.startsWith(".github/pull_request_template/") && p.endsWith(".md"))
    .sort()[0]?.[1];
}

/** The repository's own rules for contributions, read from the commit the pull request builds on. */
export async function loadGuidelines(
  gh: GithubClient,
  r: RepoRef,
  entries: Map<string, TreeEntryLike>,
): Promise<Guidelines> {
  const read = async (e: TreeEntryLike | undefined) =>
    e?.sha ? (await readBlob(gh, r, e.sha)).slice(0, 50_000) : null;
  const template = await read(find(entries, TEMPLATE_PATHS));
  const contributing = await read(
    [...entries.values()].find((e) => e.type === "blob" && CONTRIBUTING_PATHS.includes(e.path?.toLowerCase() ?? "")),
  );
  const text = `${template ?? ""}\n${contributing ?? ""}`;
  return {
    template,
    contributing,
    conventionalCommits: /conventional\s*commits|conventionalcommits\.org/i.test(text),
    signOff: /signed-off-by|developer certificate of origin|\bDCO\b/i.test(text),
    draftRequired: matchPolicy(text).some((s) => s.kind === "require-draft"),
  };
}
