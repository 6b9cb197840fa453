import type { GeneratedSolution, ReproductionAnswer } from "@fixloop/contract";
import type { ModelSandboxControl } from "./control";

/** One file of a unified diff: its path, whether it is new, and its hunks' before/after text. */
interface DiffFile {
  path: string;
  created: boolean;
  hunks: { before: string; after: string }[];
}

/** Parses a `git diff` (SWE-bench's `patch`/`test_patch`) into files and hunks. */
export function parseDiff(diff: string): DiffFile[] {
  const files: DiffFile[] = [];
  let file: DiffFile | undefined;
  let hunk: { before: string[]; after: string[] } | undefined;
  const close = () => {
    if (file && hunk) file.hunks.push({ before: hunk.before.join(""), after: hunk.after.join("") });
    hunk = undefined;
  };
  for (const line of diff.split(/(?<=\n)/)) {
    const head = /^diff --git a\/(\S+) b\/(\S+)/.exec(line);
    if (head?.[2]) {
      close();
      file = { path: head[2], created: false, hunks: [] };
      files.push(file);
    } else if (file && /^new file mode/.test(line)) file.created = true;
    else if (/^@@ /.test(line)) {
      close();
      hunk = { before: [], after: [] };
    } else if (hunk && !/^(---|\+\+\+) /.test(line)) {
      const body = line.slice(1);
      if (line.startsWith(" ") || line === "\n") {
        hunk.before.push(line === "\n" ? "\n" : body);
        hunk.after.push(line === "\n" ? "\n" : body);
      } else if (line.startsWith("-")) hunk.before.push(body);
      else if (line.startsWith("+")) hunk.after.push(body);
    }
  }
  close();
  return files;
}

/**
 * The merged fix in the product's edit format: one search/replace edit per hunk (the hunk's
 * context and removed lines → its context and added lines), new files as `create`.
 */
export function oracleSolution(patch: string): GeneratedSolution {
  const files: GeneratedSolution["files"] = parseDiff(patch).map((f) =>
    f.created
      ? { filename: f.path, action: "create", edits: [], content: f.hunks.map((h) => h.after).join("") }
      : { filename: f.path, action: "modify", edits: f.hunks.map((h) => ({ search: h.before, replace: h.after })) },
  );
  return {
    analysis: "The fix that was merged for this issue.",
    proposedSolution: "Apply the merged fix.",
    confidence: 90,
    files,
  };
}

/**
 * A reproduction test built from SWE-bench's `test_patch`: the test file it changes, as it reads
 * after the patch (`patchedTest`), without its top-level test functions other than the FAIL_TO_PASS
 * ones (its imports, helpers, classes and module-level names stay: a test may use any of them),
 * written beside it under a new name.
 */
export function oracleReproduction(testFile: string, patchedTest: string, failToPass: string[]): ReproductionAnswer {
  const lines = patchedTest.split(/(?<=\n)/);
  const keep = new Set(failToPass);
  const out: string[] = [];
  for (let i = 0; i < lines.length;) {
    // A top-level function with its decorators: dropped when it is a test not named in FAIL_TO_PASS.
    let def = i;
    while (lines[def]?.startsWith("@")) def++;
    const name = /^def (test\w*)\(/.exec(lines[def] ?? "")?.[1];
    if (name === undefined) {
      out.push(lines[i] ?? "");
      i++;
      continue;
    }
    let end = def + 1;
    while (end < lines.length && !/^\S/.test(lines[end] ?? "")) end++;
    if (keep.has(name)) out.push(...lines.slice(i, end));
    i = end;
  }
  const dir = testFile.includes("/") ? testFile.slice(0, testFile.lastIndexOf("/") + 1) : "";
  return {
    filename: `${dir}test_issue_reproduction.py`,
    content: out.join("").replace(/\n{4,}/g, "\n\n\n"),
    reason: "The tests the merged fix added for this issue.",
  };
}

/** Oracle mode: the stand-in answers the issue whose prompt contains `marker` with the merged fix and its tests. */
export function answerAsOracle(
  control: ModelSandboxControl,
  marker: string,
  answers: { solution: GeneratedSolution; reproduction: ReproductionAnswer },
): void {
  control.respondWith((p) => p.includes(marker), answers.solution);
  control.reproduceWith((p) => p.includes(marker), answers.reproduction);
}
