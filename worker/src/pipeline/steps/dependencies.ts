import type { StepDetail } from "@fixloop/db";
import { localize } from "../../localize";
import type { RepoFile } from "../../localize/files";
import type { ContextOutput } from "./context";
import { rerankPool, type PoolRerank } from "./dependencies.rerank";

export interface ChosenFile {
  path: string;
  score: number;
  reasons: string[];
  content: string;
}

export interface DependenciesOutput {
  files: ChosenFile[];
  /** Test files near each chosen file in the import graph (the validating step suggests them). */
  testsNear: Record<string, string[]>;
  repoMap: string;
  graph: { nodes: number; edges: number };
}

export interface DependenciesInput {
  context: ContextOutput;
  title: string;
  body: string;
  readBlob: (sha: string) => Promise<string>;
  top?: number;
  tokenBudget?: number;
  /** Reorders the localizer's best candidates before the top files are chosen (the embedding rerank). */
  rerank?: PoolRerank;
}

const DEFAULT_TOP = 8;
const size = (x: unknown): number => (Array.isArray(x) ? x.length : typeof x === "number" ? x : 0);
const DEFAULT_TOKEN_BUDGET = 24_000;

/** A compact map of the repository: directories with their file counts, chosen files' folders first. */
export function repoMap(paths: string[], chosen: string[], maxLines = 60): string {
  const dirs = new Map<string, number>();
  for (const p of paths) {
    const d = p.includes("/") ? p.slice(0, p.lastIndexOf("/")) : ".";
    dirs.set(d, (dirs.get(d) ?? 0) + 1);
  }
  const hot = new Set(chosen.map((p) => (p.includes("/") ? p.slice(0, p.lastIndexOf("/")) : ".")));
  const ordered = [...dirs.entries()].sort(
    (a, b) => Number(hot.has(b[0])) - Number(hot.has(a[0])) || a[0].localeCompare(b[0]),
  );
  const lines = ordered.slice(0, maxLines).map(([d, n]) => `${d}/ (${n} files)`);
  if (ordered.length > maxLines) lines.push(`... and ${ordered.length - maxLines} more directories`);
  return lines.join("\n");
}

/** Step 3: ranks files with the localizer (tree-sitter import graph + lexical + mentions), reading blobs lazily. */
export async function dependencies(
  input: DependenciesInput,
): Promise<{ output: DependenciesOutput; detail: StepDetail }> {
  const bySha = new Map(input.context.files.map((f) => [f.path, f]));
  const files: RepoFile[] = input.context.files.map((f) => ({
    path: f.path,
    size: f.size,
    key: f.sha,
    read: () => input.readBlob(f.sha),
  }));
  const started = performance.now();
  const top = input.top ?? DEFAULT_TOP;
  const tokenBudget = input.tokenBudget ?? DEFAULT_TOKEN_BUDGET;
  const result = await localize({
    files,
    issueTitle: input.title,
    issueBody: input.body,
    top: input.rerank ? Math.max(top, input.rerank.pool) : top,
    ...(input.rerank ? {} : { tokenBudget }),
  });
  const pool = input.rerank ? await rerankPool(result.files, bySha, input.rerank, top, tokenBudget) : undefined;
  const chosen: ChosenFile[] = [];
  const warnings: string[] = [...(pool?.warnings ?? [])];
  for (const f of pool?.files ?? result.files) {
    const entry = bySha.get(f.path);
    if (!entry) {
      warnings.push(`${f.path} was ranked but is not in the tree; dropped`);
      continue;
    }
    try {
      chosen.push({ path: f.path, score: f.score, reasons: f.reasons, content: await input.readBlob(entry.sha) });
    } catch {
      warnings.push(`${f.path} could not be read; dropped`);
    }
  }
  const testsNear: Record<string, string[]> = {};
  for (const f of chosen) testsNear[f.path] = result.testFilesNear([f.path]);
  if (!chosen.length) warnings.push("No file could be linked to the issue; the model sees only the repository map");
  const ms = Math.round(performance.now() - started);
  const info = [
    `Import graph: ${size(result.graph.nodes)} files, ${size(result.graph.edges)} import edges`,
    ...(pool?.info ?? []),
    `Verified ${chosen.length} of ${(pool?.files ?? result.files).length} ranked files exist at ${input.context.commitSha.slice(0, 7)} (${ms} ms)`,
    ...chosen.map((f) => `${f.path}: ${f.reasons.join("; ") || "ranked relevant"}`),
  ];
  const best = chosen[0]?.reasons.some((r) => /mention/i.test(r)) ? 95 : chosen.length ? 80 : 30;
  return {
    output: {
      files: chosen,
      testsNear,
      repoMap: repoMap(
        input.context.files.map((f) => f.path),
        chosen.map((f) => f.path),
      ),
      graph: { nodes: size(result.graph.nodes), edges: size(result.graph.edges) },
    },
    detail: { files: chosen.map((f) => f.path), info, warnings, score: best },
  };
}
