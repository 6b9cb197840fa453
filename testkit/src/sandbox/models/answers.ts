import type { GeneratedSolution } from "@fixloop/contract";
import type { SeededFix } from "../github/seed/seed.types";
import { repairFiles, SEED_REPOS } from "../github/seed";
import { candidateIndex } from "./control";

const FILE_HEADER = /^\s*#{1,6}\s*File:\s*`?([^`\s]+)`?\s*$/;
const NUMBERED_LINE = /^\s*\d+\s*(?:\||:|\t)\s?(.*)$/;
/** A skeleton's marker for lines left out (`   |     … lines 12-40`). */
const ELIDED_LINES = /^\s*\|\s*… lines? \d+/;

interface PromptFile {
  path: string;
  lines: string[];
}

/** The files the pipeline shows as `### File: path` followed by line-numbered content. */
export function promptFiles(prompt: string): PromptFile[] {
  const files: PromptFile[] = [];
  let current: PromptFile | null = null;
  for (const line of prompt.split("\n")) {
    const header = FILE_HEADER.exec(line);
    if (header?.[1]) {
      current = { path: header[1], lines: [] };
      files.push(current);
      continue;
    }
    if (!current) continue;
    if (ELIDED_LINES.test(line)) continue;
    const numbered = NUMBERED_LINE.exec(line);
    if (numbered) current.lines.push(numbered[1] ?? "");
    else if (line.trim() !== "" || current.lines.length > 0) current = null;
  }
  return files;
}

function issueTitle(prompt: string): string {
  return /^\s*Title:\s*(.+)$/m.exec(prompt)?.[1]?.trim() ?? "the reported issue";
}

export function commentFor(path: string): ((text: string) => string) | null {
  const ext = path.slice(path.lastIndexOf(".") + 1).toLowerCase();
  if (["json", "lock", "svg", "png", "csv"].includes(ext)) return null;
  if (["py", "rb", "sh", "bash", "yml", "yaml", "toml", "r", "pl", "ex", "exs", "cfg", "ini", "txt"].includes(ext))
    return (t) => `# ${t}`;
  if (["md", "html", "xml", "vue", "svelte"].includes(ext)) return (t) => `<!-- ${t} -->`;
  if (["sql", "lua", "hs"].includes(ext)) return (t) => `-- ${t}`;
  if (ext === "css") return (t) => `/* ${t} */`;
  return (t) => `// ${t}`;
}

/** A line that occurs once in the file and says something (not a brace or a blank). */
export function anchorLine(lines: string[]): string | undefined {
  return lines.find(
    (l) => l.trim().replace(/[{}()[\];,]/g, "").length >= 6 && lines.filter((x) => x === l).length === 1,
  );
}

/** A small, well-formed change to the first commentable file shown in the prompt. */
export function fallbackSolution(prompt: string): GeneratedSolution {
  const title = issueTitle(prompt).replace(/\s+/g, " ").slice(0, 120);
  for (const file of promptFiles(prompt)) {
    const comment = commentFor(file.path);
    const anchor = anchorLine(file.lines);
    if (!comment || anchor === undefined) continue;
    const indent = /^\s*/.exec(anchor)?.[0] ?? "";
    return {
      analysis: `The behaviour described in "${title}" originates around ${file.path}; the code there does not account for the reported case.`,
      proposedSolution: `Mark the relevant code in ${file.path} for the fix of "${title}" with a minimal, reviewable change.`,
      confidence: 62,
      files: [
        {
          filename: file.path,
          action: "modify",
          edits: [{ search: anchor, replace: `${indent}${comment(`Fix for: ${title}`)}\n${anchor}` }],
        },
      ],
    };
  }
  return {
    analysis: `No source file was shown for "${title}", so the change records the investigation.`,
    proposedSolution: "Add a note describing the issue for follow-up.",
    confidence: 40,
    files: [{ filename: "NOTES.md", action: "create", edits: [], content: `# Notes\n\n- ${title}\n` }],
  };
}

/** The title of the seeded issue a fix belongs to (issues are numbered 1..n in seed order). */
function seededIssueTitle(fix: SeededFix): string | undefined {
  const repo = SEED_REPOS.find((r) => `${r.owner}/${r.name}` === fix.repo);
  return repo?.issues[fix.issueNumber - 1]?.title;
}

/** The seeded fix whose issue title appears in the prompt; the repository name breaks ties. */
export function seededFixFor(fixes: readonly SeededFix[], prompt: string): SeededFix | undefined {
  const matches = fixes.filter((f) => {
    const title = seededIssueTitle(f);
    return (title !== undefined && prompt.includes(title)) || prompt.includes(f.title);
  });
  return matches.find((f) => prompt.includes(f.repo)) ?? matches[0];
}

/** How the pipeline's repair round is recognised: its prompt carries the output of the failing tests. */
export const REPAIR_PROMPT = /failing tests?/i;

/** Whether the files the prompt shows already carry every edit of `files` (a refinement of that answer). */
function carried(prompt: string, files: SeededFix["files"]): boolean {
  const shown = new Map(promptFiles(prompt).map((f) => [f.path, f.lines.join("\n")]));
  const edits = files.flatMap((f) => (f.edits ?? []).map((e) => ({ text: shown.get(f.filename), e })));
  return edits.length > 0 && edits.every(({ text, e }) => text !== undefined && text.includes(e.replace));
}

/**
 * The seeded fix whose issue title appears in the prompt; the repository name breaks ties. A fix
 * with a scripted first attempt answers with that attempt, and with the fix (made on the first
 * attempt's files, which that prompt shows) in the repair round; of several candidates, the
 * even-numbered ones get the fix (one right, one regressing). A refinement of a solution that
 * kept the repair starts from the fix, so its explanation is the kept attempt's.
 */
export function seededSolution(fixes: readonly SeededFix[], prompt: string): GeneratedSolution | undefined {
  const fix = seededFixFor(fixes, prompt);
  if (!fix) return undefined;
  const answer = !fix.firstAttempt
    ? fix
    : REPAIR_PROMPT.test(prompt)
      ? { ...fix, files: repairFiles(fix) }
      : carried(prompt, fix.files) || candidateIndex(prompt) % 2 === 1
        ? fix
        : fix.firstAttempt;
  return {
    analysis: answer.analysis,
    proposedSolution: answer.proposedSolution,
    confidence: 88,
    files: answer.files.map((f) => ({
      filename: f.filename,
      action: f.action,
      edits: f.edits ?? [],
      ...(f.content !== undefined ? { content: f.content } : {}),
    })),
  };
}

/** A tool call that is valid JSON but misses required fields, as a model cut short would send. */
export const MALFORMED_ARGUMENTS = JSON.stringify({ analysis: "The issue is caused by", confidence: "high" });
