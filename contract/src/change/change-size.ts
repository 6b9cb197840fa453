/** The pull request's size limits (PR_MAX_FILES, PR_MAX_CHANGED_LINES, PR_MAX_BYTES). */
export interface ChangeSizeLimits {
  maxFiles: number;
  maxChangedLines: number;
  /** Bytes of any one file's new contents, and of all of them together. */
  maxBytes: number;
}

/** The limits as the API's and the worker's settings give them (one place maps the names). */
export function changeSizeLimitsOf(env: {
  PR_MAX_FILES: number;
  PR_MAX_CHANGED_LINES: number;
  PR_MAX_BYTES: number;
}): ChangeSizeLimits {
  return { maxFiles: env.PR_MAX_FILES, maxChangedLines: env.PR_MAX_CHANGED_LINES, maxBytes: env.PR_MAX_BYTES };
}

interface SizedChange {
  filename: string;
  action: "create" | "modify" | "delete";
  content: string;
  originalContent: string;
}

/** Why a change is too large or carries new binary content for one pull request. */
export interface ChangeSizeBreach {
  code: "pull_request.too_large" | "pull_request.binary_content";
  message: string;
}

/** Text that is not text: NUL bytes, or bytes that were not valid UTF-8 (decoded as U+FFFD). */
export const looksBinary = (s: string) => s.includes("\0") || s.includes("\uFFFD");

/**
 * Lines added plus removed, by comparing the two files as multisets of lines: exact for pure
 * additions and deletions, and never below the real diff for moves, which is what a limit needs.
 */
export function lineDelta(before: string, after: string): { added: number; removed: number } {
  const counts = new Map<string, number>();
  const lines = (s: string) => (s === "" ? [] : s.split("\n"));
  for (const l of lines(before)) counts.set(l, (counts.get(l) ?? 0) + 1);
  let added = 0;
  for (const l of lines(after)) {
    const n = counts.get(l) ?? 0;
    if (n > 0) counts.set(l, n - 1);
    else added++;
  }
  let removed = 0;
  for (const n of counts.values()) removed += n;
  return { added, removed };
}

export function countChangedLines(before: string, after: string): number {
  const d = lineDelta(before, after);
  return d.added + d.removed;
}

export function fileChangedLines(f: SizedChange): number {
  return countChangedLines(f.action === "create" ? "" : f.originalContent, f.action === "delete" ? "" : f.content);
}

const tooLarge = (message: string): ChangeSizeBreach => ({ code: "pull_request.too_large", message });

/**
 * The first size limit a change passes, in the pull-request job's own words, or null. The job
 * refuses such a change; the validating step and hand edits refuse it first, with the same reason.
 */
export function changeSizeBreach(files: SizedChange[], limits: ChangeSizeLimits): ChangeSizeBreach | null {
  if (files.length > limits.maxFiles)
    return tooLarge(
      `The change touches ${files.length} files; at most ${limits.maxFiles} are allowed in one pull request`,
    );
  const lines = files.reduce((n, f) => n + fileChangedLines(f), 0);
  if (lines > limits.maxChangedLines)
    return tooLarge(
      `The change has ${lines} changed lines; at most ${limits.maxChangedLines} are allowed in one pull request`,
    );
  const over = (what: string) => tooLarge(`${what}; at most ${limits.maxBytes} bytes are allowed in one pull request`);
  let total = 0;
  for (const f of files) {
    if (f.action === "delete") continue;
    const bytes = new TextEncoder().encode(f.content).length;
    if (bytes > limits.maxBytes) return over(`${f.filename} has ${bytes} bytes`);
    total += bytes;
    if (looksBinary(f.content) && (f.action === "create" || !looksBinary(f.originalContent)))
      return {
        code: "pull_request.binary_content",
        message: `${f.filename}: binary content is refused unless the file was binary before`,
      };
  }
  return total > limits.maxBytes ? over(`The change has ${total} bytes`) : null;
}
