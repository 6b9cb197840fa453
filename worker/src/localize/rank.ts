import { bm25Scores } from "./bm25";
import { type FileStats, type LocalizeCache, termFrequency } from "./cache";
import { type IssueQuery, mentionSegments } from "./mentions";
import type { RepoPaths } from "./paths";

/** One indexed file as the ranker sees it. */
export interface Doc {
  path: string;
  stats: FileStats;
  code: boolean;
  test: boolean;
}

/** Per-file evidence from one signal: a score and the reasons behind it. */
export type Evidence = Map<string, { score: number; reasons: string[] }>;

export const WEIGHTS = {
  lex: 1.8,
  path: 0.6,
  mention: 2,
  def: 1.2,
  graph: 0.15,
  usage: 0.4,
  test: 0.25,
  nonCode: 0.4,
  stub: 0.3,
};

const TEST_PATH =
  /(?:^|\/)(?:tests?|testing|__tests__|spec|specs|test_utils)\/|(?:^|\/)(?:test_[^/]*|[^/]*_test\.\w+|[^/]*\.(?:test|spec)\.\w+|[^/]*Tests?\.(?:java|kt|cs)|conftest\.py)$/;
export const isTestPath = (p: string): boolean => TEST_PATH.test(p);

export function add(e: Evidence, path: string, score: number, reason?: string): void {
  let v = e.get(path);
  if (!v) {
    v = { score: 0, reasons: [] };
    e.set(path, v);
  }
  v.score += score;
  if (reason && !v.reasons.includes(reason)) v.reasons.push(reason);
}

const normalize = (a: Float64Array): Float64Array => {
  let max = 0;
  for (const v of a) if (v > max) max = v;
  if (max > 0) for (let i = 0; i < a.length; i++) a[i] = (a[i] ?? 0) / max;
  return a;
};

/** Query as term ids of the cache vocabulary (terms no file contains are dropped). */
export function queryIds(issue: IssueQuery, cache: LocalizeCache): Map<number, number> {
  const q = new Map<number, number>();
  for (const [t, w] of issue.terms) {
    const id = cache.termId(t);
    if (id !== undefined) q.set(id, w);
  }
  return q;
}

/** BM25 over file contents, scaled to [0, 1]. */
export function contentSignal(
  docs: readonly Doc[],
  query: ReadonlyMap<number, number>,
  idfOut?: Map<number, number>,
): Float64Array {
  return normalize(
    bm25Scores(
      docs.map((d) => d.stats),
      query,
      {},
      idfOut,
    ),
  );
}

/** Issue terms found in each path (file-name parts count double), idf-weighted, in [0, 1]. */
export function pathSignal(docs: readonly Doc[], issue: IssueQuery, cache: LocalizeCache): Float64Array {
  const hits: { i: number; t: string; base: boolean }[] = [];
  const df = new Map<string, number>();
  docs.forEach((d, i) => {
    const slash = d.path.lastIndexOf("/");
    const base = cache.pathTerms(d.path.slice(slash + 1));
    for (const t of cache.pathTerms(d.path)) {
      if (!issue.terms.has(t)) continue;
      hits.push({ i, t, base: base.includes(t) });
      df.set(t, (df.get(t) ?? 0) + 1);
    }
  });
  const n = docs.length;
  const out = new Float64Array(n);
  for (const { i, t, base } of hits) {
    const idf = Math.log(1 + n / (df.get(t) ?? 1));
    out[i] = (out[i] ?? 0) + (base ? 2 : 1) * (issue.terms.get(t) ?? 0) * idf;
  }
  return normalize(out);
}

/** Paths, stack-trace frames and dotted module names of the issue, matched to files. */
export function mentionSignal(issue: IssueQuery, paths: RepoPaths): Evidence {
  const e: Evidence = new Map();
  for (const m of issue.paths) {
    const segs = mentionSegments(m.text);
    const { paths: hits, matched } = paths.matchMention(segs);
    if (hits.length === 0) continue;
    const frame = m.frame !== undefined && m.frames !== undefined;
    const base = frame ? 0.6 + (0.6 * ((m.frame ?? 0) + 1)) / (m.frames ?? 1) : 1;
    // A bare file name is weaker evidence than a path: it may be the reporter's own file.
    const weight =
      matched >= 2
        ? base / Math.min(hits.length, 3)
        : segs.length === 1
          ? (0.6 * base) / hits.length
          : (0.3 * base) / hits.length;
    if (weight < 0.05) continue;
    const reason = frame ? "in stack trace" : "mentioned in issue";
    for (const p of hits) add(e, p, weight, reason);
  }
  for (const d of issue.dotted) {
    const segs = d.split(".");
    for (let k = segs.length; k >= 2; k--) {
      const hits = paths
        .bySuffix(segs.slice(0, k).join("/"))
        .filter((p) => /\.(?:py|pyi|java|rb|php|rs|go|ts|js)$/.test(p));
      if (hits.length === 0) continue;
      const name = segs.slice(0, k).join(".");
      if (hits.length > 3) break;
      for (const p of hits) {
        const pkg = p.match(/^(.*)\/(?:__init__\.py|mod\.rs|index\.[jt]s)$/)?.[1];
        if (!pkg) {
          add(e, p, k === segs.length ? 0.8 : 0.6, `module \`${name}\` named in issue`);
          continue;
        }
        // A package: its modules hold the code more often than its __init__ does.
        const members = paths.inDirectory(pkg).filter((m) => m !== p && /\.(?:py|rs|[jt]s)$/.test(m));
        add(e, p, 0.4, `package \`${name}\` named in issue`);
        for (const m of members) add(e, m, 0.5 / Math.sqrt(members.length), `in package \`${name}\` named in issue`);
      }
      break;
    }
  }
  return e;
}

/** Files defining identifiers the issue names; an identifier defined in many files counts less. */
export function definitionSignal(issue: IssueQuery, definers: ReadonlyMap<string, readonly string[]>): Evidence {
  const e: Evidence = new Map();
  for (const [name, weight] of issue.identifiers) {
    let files = definers.get(name);
    if (!files || files.length === 0) continue;
    // `from pkg.mod import Name`: definers inside pkg/mod are the ones meant.
    const scope = issue.scopes.get(name)?.replace(/\./g, "/");
    const inScope = scope
      ? files.filter(
          (p) =>
            p.startsWith(`${scope}/`) ||
            p.includes(`/${scope}/`) ||
            p.replace(/(\/__init__)?\.\w+$/, "").endsWith(scope),
        )
      : [];
    if (inScope.length > 0) files = inScope;
    const share = ((inScope.length > 0 ? 1.5 : 1) * weight) / Math.sqrt(files.length);
    if (share < 0.1) continue;
    for (const p of files) add(e, p, share, `defines \`${name}\` named in issue`);
  }
  return e;
}

/** Files using a rare identifier the issue names (config keys, attributes, helpers). */
export function usageSignal(docs: readonly Doc[], issue: IssueQuery, cache: LocalizeCache): Evidence {
  const e: Evidence = new Map();
  for (const [name, weight] of issue.identifiers) {
    if (weight < 1 || name.length < 5) continue;
    const id = cache.termId(name.toLowerCase());
    if (id === undefined) continue;
    const users: string[] = [];
    for (const d of docs) {
      if (d.test || !d.code || termFrequency(d.stats, id) === 0) continue;
      users.push(d.path);
      if (users.length > 8) break;
    }
    if (users.length === 0 || users.length > 8) continue;
    for (const p of users) add(e, p, weight / Math.sqrt(users.length), `uses \`${name}\` named in issue`);
  }
  return e;
}

export interface Combined {
  score: Float64Array;
  reasons: Map<number, string[]>;
}

/** A per-file signal in [0, 1] with its weight in a sum. */
export interface Dense {
  values: ArrayLike<number>;
  weight: number;
}

/**
 * Weights of the final rescoring: the same signals plus the title and function-level ones.
 * Output of `tsx infra/src/bench/localize/fit.ts` on the 223 SWE-bench Lite tune instances
 * (signals dumped by `eval.ts --features`); the bench reports them in-sample and cross-validated.
 */
export const RESCORE = {
  lex: 2.142,
  path: 0.69,
  mention: 1.322,
  mentionCap: 1.19,
  def: 0.608,
  defCap: 0.5,
  usage: 0.34,
  usageCap: 2.058,
  graph: 0.483,
  title: 0.661,
  chunk: 0.5,
  chunkTitle: 1,
  test: 0.25,
  /** Added to files under docs/, examples/, benchmarks/ (before the discounts). */
  docs: -3,
};

const DOCS_PATH = /(?:^|\/)(?:docs?|examples?|benchmarks?|asv_bench|tutorials?)\//;
export const isDocsPath = (p: string): boolean => DOCS_PATH.test(p);

/**
 * Weighted sum of the signals, with test and non-code files discounted. `dense` adds further
 * per-file signals; `lexWeight`/`pathWeight`/`docs` override the first-stage weights.
 */
export function combine(
  docs: readonly Doc[],
  lex: Float64Array,
  path: Float64Array,
  evidence: { signal: Evidence; weight: number; cap: number }[],
  byPath: ReadonlyMap<string, number>,
  extra: { dense?: Dense[]; lexWeight?: number; pathWeight?: number; docs?: number; test?: number } = {},
): Combined {
  const score = new Float64Array(docs.length);
  const reasons = new Map<number, string[]>();
  const lw = extra.lexWeight ?? WEIGHTS.lex;
  const pw = extra.pathWeight ?? WEIGHTS.path;
  for (let i = 0; i < docs.length; i++) score[i] = lw * (lex[i] ?? 0) + pw * (path[i] ?? 0);
  for (const { values, weight } of extra.dense ?? [])
    for (let i = 0; i < docs.length; i++) score[i] = (score[i] ?? 0) + weight * (values[i] ?? 0);
  if (extra.docs) docs.forEach((d, i) => isDocsPath(d.path) && (score[i] = (score[i] ?? 0) + (extra.docs ?? 0)));
  for (const { signal, weight, cap } of evidence) {
    for (const [p, v] of signal) {
      const i = byPath.get(p);
      if (i === undefined) continue;
      score[i] = (score[i] ?? 0) + weight * Math.min(cap, v.score);
      const r = reasons.get(i) ?? [];
      for (const x of v.reasons) if (!r.includes(x)) r.push(x);
      reasons.set(i, r);
    }
  }
  docs.forEach((d, i) => {
    if (d.test) score[i] = (score[i] ?? 0) * (extra.test ?? WEIGHTS.test);
    if (!d.code) score[i] = (score[i] ?? 0) * WEIGHTS.nonCode;
    if (d.path.endsWith(".pyi") || d.path.endsWith(".d.ts")) score[i] = (score[i] ?? 0) * WEIGHTS.stub;
  });
  return { score, reasons };
}
