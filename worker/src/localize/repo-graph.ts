import type { RepoFile } from "./files";
import { ImportGraph, resolveImport } from "./graph";
import { languageOf } from "./languages";
import { parseSource } from "./parse";
import { isSafeRepoPath, RepoPaths } from "./paths";

/**
 * The full import graph of a set of files (every source file parsed). The localizer itself
 * parses only its candidates; this is for small repositories, tools and tests.
 */
export async function buildImportGraph(files: readonly RepoFile[]): Promise<ImportGraph> {
  const safe = files.filter((f) => isSafeRepoPath(f.path));
  const paths = new RepoPaths(safe.map((f) => f.path));
  const graph = new ImportGraph();
  for (const file of safe) {
    const lang = languageOf(file.path);
    if (!lang) continue;
    const text = await file.read().catch(() => undefined);
    const parsed = text === undefined ? undefined : await parseSource(lang, text);
    if (!parsed) continue;
    graph.addNode(file.path);
    for (const spec of parsed.imports)
      for (const to of resolveImport(lang, file.path, spec, paths)) graph.addEdge(file.path, to);
  }
  return graph;
}
