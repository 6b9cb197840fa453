import { bm25Scores, topIndices } from "./bm25";
import { LocalizeCache, termFrequency } from "./cache";
import { chunkSignals } from "./chunks";
import { buildCorpus, type Corpus, parseDocs } from "./corpus";
import type { RepoFile } from "./files";
import { ImportGraph, resolveImport } from "./graph";
import { languageOf } from "./languages";
import { parseIssue } from "./mentions";
import { RepoPaths } from "./paths";
import {
  add,
  combine,
  contentSignal,
  definitionSignal,
  type Evidence,
  mentionSignal,
  pathSignal,
  queryIds,
  RESCORE,
  usageSignal,
  WEIGHTS,
} from "./rank";
import { type RescoreFeatures, rescoreFeatures } from "./rescore";
import { addTopSymbols, type RankedSymbol } from "./symbols.rank";
import { testFilesNear } from "./tests-near";
import { forEachTerm } from "./tokenize";

export interface LocalizeInput {
  files: RepoFile[];
  issueTitle: string;
  issueBody: string;
  /** How many files to return. Default 10. */
  top?: number;
  /** Budget for the chosen files' contents, in tokens (≈ bytes / 4). Default unlimited. */
  tokenBudget?: number;
  cache?: LocalizeCache;
  /** How many top symbols (functions, classes) to return per file. Default 0. */
  symbols?: number;
  /**
   * Filled with the second-stage signals of the rescored candidates, the final top 50 and the
   * `include` paths (the bench fits and cross-validates the weights on them).
   */
  features?: { include?: readonly string[]; rows: RescoreFeatures[] };
}

export interface LocalizedFile {
  path: string;
  score: number;
  reasons: string[];
  /** Its functions and classes most likely to change, best first (when asked for). */
  symbols?: RankedSymbol[];
}

export interface LocalizeResult {
  files: LocalizedFile[];
  graph: { nodes: number; edges: number };
  languages: Record<string, number>;
  stats: { parsed: number; skipped: number; ms: number };
  /** Test files that most likely exercise the given source files, best first. */
  testFilesNear(paths: string[]): string[];
}

/** Files ranked by the lexical pre-score that are parsed whatever else is found. */
const PARSE_TOP = 40;
/** Cap on files parsed because they appear to define an identifier the issue names. */
const PARSE_DEFINERS = 30;
/** Cap on files counted as definers of an identifier the issue names (the first ones parsed). */
const HINTED_DEFINERS = 150;
/** Best files whose import neighbours get a proximity score. */
const GRAPH_SEEDS = 8;
/** Best files of the first stage that are cut into functions and rescored. */
const RESCORE_CANDIDATES = 100;

/**
 * Every index term a localization of this issue (or its BM25 baseline) looks up: a cache made
 * for this one issue need keep no other (see `LocalizeCacheOptions.terms`).
 */
export function issueTerms(title: string, body: string): Set<string> {
  const issue = parseIssue(title, body);
  return new Set([...issue.terms.keys(), ...[...issue.identifiers.keys()].map((name) => name.toLowerCase())]);
}

/** Ranks the files of a repository by how likely an issue's fix must change them. */
export async function localize(input: LocalizeInput): Promise<LocalizeResult> {
  const started = performance.now();
  const cache = input.cache ?? new LocalizeCache();
  const issue = parseIssue(input.issueTitle, input.issueBody);
  const corpus = await buildCorpus(input.files, cache);
  const { docs, byPath } = corpus;
  const paths = new RepoPaths(docs.map((d) => d.path));

  const query = queryIds(issue, cache);
  const idf = new Map<number, number>();
  const lex = contentSignal(docs, query, idf);
  const pathS = pathSignal(docs, issue, cache);
  const mentions = mentionSignal(issue, paths);
  const usage = usageSignal(docs, issue, cache);
  const pre = combine(docs, lex, pathS, [{ signal: mentions, weight: WEIGHTS.mention, cap: 2 }], byPath);

  // Parse only the promising files: lexical leaders, mentioned files, likely definers.
  const wanted = new Map<number, string>();
  for (const [ident] of issue.identifiers) {
    const id = cache.termId(ident.toLowerCase());
    if (id !== undefined) wanted.set(id, ident);
  }
  const definerHints = docs.flatMap((d, i) => (d.stats.defs.some((id) => wanted.has(id)) ? [i] : []));
  definerHints.sort((a, b) => (pre.score[b] ?? 0) - (pre.score[a] ?? 0));
  const toParse = new Set<number>([
    ...topIndices(pre.score, PARSE_TOP),
    ...[...mentions.keys()].flatMap((p) => byPath.get(p) ?? []),
    ...definerHints.slice(0, PARSE_DEFINERS),
  ]);
  const graph = new ImportGraph();
  const definers = new Map<string, string[]>();
  let parsed = 0;
  const order = [...toParse];
  const infos = await parseDocs(corpus, cache, order);
  order.forEach((i, k) => {
    const info = infos[k];
    const path = docs[i]?.path;
    const lang = path ? languageOf(path) : undefined;
    if (!info || !path || !lang) return;
    parsed++;
    graph.addNode(path);
    for (const name of info.defs)
      if (issue.identifiers.has(name)) definers.set(name, [...(definers.get(name) ?? []), path]);
    for (const spec of info.imports) for (const to of resolveImport(lang, path, spec, paths)) graph.addEdge(path, to);
  });
  // Further likely definers count by the definitions the tokenizer saw, without a parse.
  for (const i of definerHints.slice(PARSE_DEFINERS, HINTED_DEFINERS)) {
    const path = docs[i]?.path;
    if (!path || toParse.has(i)) continue;
    for (const id of docs[i]?.stats.defs ?? []) {
      const name = wanted.get(id);
      if (name) definers.set(name, [...(definers.get(name) ?? []), path]);
    }
  }

  const defs = definitionSignal(issue, definers);
  const evidence = [
    { signal: mentions, weight: WEIGHTS.mention, cap: 2 },
    { signal: defs, weight: WEIGHTS.def, cap: 2 },
    { signal: usage, weight: WEIGHTS.usage, cap: 1.5 },
  ];
  const mid = combine(docs, lex, pathS, evidence, byPath);
  const seeds = topIndices(mid.score, GRAPH_SEEDS);
  const best = mid.score[seeds[0] ?? -1] ?? 0;
  const near: Evidence = new Map();
  for (const s of seeds) {
    const from = docs[s]?.path;
    if (!from || best <= 0) continue;
    const w = (mid.score[s] ?? 0) / best;
    for (const to of graph.importsOf(from)) add(near, to, 0.5 * w, `imported by ${from}`);
    for (const by of graph.importersOf(from)) add(near, by, 0.3 * w, `imports ${from}`);
  }
  const first = combine(docs, lex, pathS, [...evidence, { signal: near, weight: WEIGHTS.graph, cap: 1 }], byPath);

  // Second stage: the title on its own and function-level matches, over the first stage's best.
  const titleQuery = new Map<number, number>();
  forEachTerm(input.issueTitle, (t) => {
    const id = cache.termId(t);
    if (id !== undefined) titleQuery.set(id, 1);
  });
  const title = scaled(
    bm25Scores(
      docs.map((d) => d.stats),
      titleQuery,
    ),
  );
  const candidates = topIndices(first.score, RESCORE_CANDIDATES);
  const chunks = await chunkSignals(corpus, cache, candidates, query, titleQuery, idf);
  const final = combine(
    docs,
    lex,
    pathS,
    [
      { signal: mentions, weight: RESCORE.mention, cap: RESCORE.mentionCap },
      { signal: defs, weight: RESCORE.def, cap: RESCORE.defCap },
      { signal: usage, weight: RESCORE.usage, cap: RESCORE.usageCap },
      { signal: near, weight: RESCORE.graph, cap: 1 },
    ],
    byPath,
    {
      lexWeight: RESCORE.lex,
      pathWeight: RESCORE.path,
      docs: RESCORE.docs,
      test: RESCORE.test,
      dense: [
        { values: title, weight: RESCORE.title },
        { values: chunks.issue, weight: RESCORE.chunk },
        { values: chunks.title, weight: RESCORE.chunkTitle },
      ],
    },
  );

  if (input.features) {
    const extra = (input.features.include ?? []).flatMap((p) => byPath.get(p) ?? []);
    const at = new Set([...candidates, ...topIndices(final.score, 50), ...extra]);
    const src = { docs, lex, path: pathS, title, chunk: chunks.issue, chunkTitle: chunks.title };
    input.features.rows.push(...rescoreFeatures({ ...src, mentions, defs, usage, near }, at, new Set(candidates)));
  }
  const top = input.top ?? 10;
  const budget = input.tokenBudget ?? Number.POSITIVE_INFINITY;
  const chosen: LocalizedFile[] = [];
  let used = 0;
  for (const i of topIndices(final.score, Math.max(top * 4, 50))) {
    if (chosen.length >= top) break;
    const file = corpus.files[i];
    const doc = docs[i];
    if (!file || !doc) continue;
    const tokens = Math.ceil(file.size / 4);
    if (used + tokens > budget) continue;
    if (
      (await file.read().then(
        () => true,
        () => false,
      )) === false
    )
      continue;
    used += tokens;
    const reasons = summarize(final.reasons.get(i) ?? []);
    const lexical = lexicalReason(corpus, i, query, idf, cache);
    if ((lex[i] ?? 0) > 0.2 && lexical) reasons.push(lexical);
    const line = chunks.bestLine.get(i);
    if ((chunks.issue[i] ?? 0) > 0.6 && line !== undefined) reasons.push(`code near line ${line} matches the issue`);
    if ((title[i] ?? 0) > 0.6) reasons.push("matches the issue title");
    if (reasons.length === 0) reasons.push("path match");
    chosen.push({ path: doc.path, score: Math.round((final.score[i] ?? 0) * 1000) / 1000, reasons });
  }
  if (input.symbols)
    await addTopSymbols(chosen, corpus, issue, `${input.issueTitle}\n${input.issueBody}`, input.symbols);

  const languages: Record<string, number> = {};
  for (const d of docs) {
    const lang = languageOf(d.path);
    if (lang) languages[lang] = (languages[lang] ?? 0) + 1;
  }
  return {
    files: chosen,
    graph: { nodes: graph.nodes.size, edges: graph.edgeCount },
    languages,
    stats: { parsed, skipped: corpus.skipped, ms: Math.round(performance.now() - started) },
    testFilesNear: (p) => testFilesNear(docs, graph, p),
  };
}

function scaled(a: Float64Array): Float64Array {
  let max = 0;
  for (const v of a) if (v > max) max = v;
  if (max > 0) for (let i = 0; i < a.length; i++) a[i] = (a[i] ?? 0) / max;
  return a;
}

/** At most two graph reasons and six in all, strongest kinds first. */
function summarize(reasons: readonly string[]): string[] {
  const graph = reasons.filter((r) => r.startsWith("imported by ") || r.startsWith("imports "));
  const other = reasons.filter((r) => !graph.includes(r));
  const more = graph.length > 2 ? [`import neighbour of ${graph.length - 2} more top files`] : [];
  return [...other.slice(0, 4), ...graph.slice(0, 2), ...more];
}

/** "lexical match: tokens a, b, c" for the query terms contributing most to a file. */
export function lexicalReason(
  corpus: Corpus,
  i: number,
  query: ReadonlyMap<number, number>,
  idf: ReadonlyMap<number, number>,
  cache: LocalizeCache,
): string | undefined {
  const stats = corpus.docs[i]?.stats;
  if (!stats) return undefined;
  const contrib: { id: number; v: number }[] = [];
  for (const [id, w] of query) {
    const tf = termFrequency(stats, id);
    if (tf > 0) contrib.push({ id, v: w * (idf.get(id) ?? 0) * Math.log(1 + tf) });
  }
  contrib.sort((a, b) => b.v - a.v);
  const names = contrib
    .slice(0, 4)
    .map((c) => cache.termName(c.id))
    .filter((t) => t !== undefined);
  return names.length > 0 ? `lexical match: tokens ${names.join(", ")}` : undefined;
}
