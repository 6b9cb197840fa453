import type { Corpus } from "./corpus";
import type { IssueQuery } from "./mentions";
import { type FileSymbol, filesSymbols } from "./symbols";
import { termCounts } from "./tokenize";

/** A symbol of a localized file with the evidence that it is where the fix goes. */
export interface RankedSymbol {
  name: string;
  kind: FileSymbol["kind"];
  startLine: number;
  endLine: number;
  score: number;
  reasons: string[];
}

/** A stack-trace frame: the file it names, the line, and the function when given. */
export interface Frame {
  path: string;
  line: number;
  fn?: string;
}

const FRAMES = [
  /File "([^"]+)", line (\d+)(?:, in ([\w<>]+))?/g, // Python
  /\bat (?:([\w$.<>]+) )?\(?((?:[A-Za-z]:)?[\w./\\@-]+\.[A-Za-z]+):(\d+)(?::\d+)?\)?/g, // JS / Go / Ruby
  /^\s*((?:[A-Za-z]:)?[\w./\\-]+\.[A-Za-z]+):(\d+)/gm, // file:line
];

/** Stack-trace frames of an issue text. */
export function stackFrames(text: string): Frame[] {
  const out: Frame[] = [];
  for (const m of text.matchAll(FRAMES[0] as RegExp))
    out.push({ path: m[1] ?? "", line: Number(m[2]), ...(m[3] ? { fn: m[3] } : {}) });
  for (const m of text.matchAll(FRAMES[1] as RegExp))
    out.push({ path: m[2] ?? "", line: Number(m[3]), ...(m[1] ? { fn: m[1].split(".").pop() ?? m[1] } : {}) });
  for (const m of text.matchAll(FRAMES[2] as RegExp)) out.push({ path: m[1] ?? "", line: Number(m[2]) });
  return out.filter((f) => f.path !== "" && Number.isFinite(f.line));
}

/** Whether a frame's (often absolute, site-packages) path is this repository path. */
function framePathIs(frame: string, path: string): boolean {
  const f = frame.replace(/\\/g, "/");
  if (f === path || f.endsWith(`/${path}`)) return true;
  const tail = f.split("/").slice(-2).join("/");
  return tail.includes("/") && (path === tail || path.endsWith(`/${tail}`));
}

const WEIGHTS = { def: 1.2, owner: 0.3, use: 0.5, lex: 1, trace: 1.5 };
const BM25 = { k1: 1.2, b: 0.75 };

/** Each symbol's own lines: its span minus its children's bodies (their headers stay). */
function ownText(lines: readonly string[], symbols: readonly FileSymbol[], i: number): string {
  const s = symbols[i];
  if (!s) return "";
  const own = lines.slice(s.startLine - 1, s.endLine);
  for (const c of symbols)
    if (c !== s && symbols[c.parent ?? -1] === s)
      for (let l = c.headerEnd + 1; l <= c.endLine; l++) own[l - s.startLine] = "";
  return own.join("\n");
}

/** BM25 of each text against the issue's weighted terms, idf taken over these texts. */
export function bm25Texts(texts: readonly string[], terms: ReadonlyMap<string, number>): number[] {
  const counts = texts.map(termCounts);
  const lengths = counts.map((c) => [...c.values()].reduce((a, b) => a + b, 0));
  const avg = lengths.reduce((a, b) => a + b, 0) / Math.max(1, texts.length) || 1;
  const scores = texts.map(() => 0);
  for (const [term, weight] of terms) {
    const df = counts.filter((c) => c.has(term)).length;
    if (df === 0) continue;
    const idf = Math.log(1 + (texts.length - df + 0.5) / (df + 0.5));
    counts.forEach((c, i) => {
      const f = c.get(term) ?? 0;
      const norm = BM25.k1 * (1 - BM25.b + (BM25.b * (lengths[i] ?? 0)) / avg);
      if (f > 0) scores[i] = (scores[i] ?? 0) + (weight * idf * f * (BM25.k1 + 1)) / (f + norm);
    });
  }
  return scores;
}

/** The terms of a text contributing most to its BM25 match with the issue. */
function matchedTerms(text: string, terms: ReadonlyMap<string, number>): string[] {
  const counts = termCounts(text);
  return [...terms]
    .filter(([t]) => counts.has(t) && t.length > 2)
    .sort((a, b) => b[1] - a[1])
    .slice(0, 3)
    .map(([t]) => t);
}

const words = (text: string): Set<string> => new Set(text.match(/[A-Za-z_$][\w$]*/g) ?? []);

/**
 * Ranks the symbols of one file by the issue's evidence: identifiers it defines or uses, the
 * lexical overlap of its own text, and stack-trace frames falling inside it. Best first.
 */
export function rankSymbols(
  path: string,
  text: string,
  symbols: readonly FileSymbol[],
  issue: IssueQuery,
  frames: readonly Frame[],
): RankedSymbol[] {
  if (symbols.length === 0) return [];
  const lines = text.split("\n");
  const own = symbols.map((_, i) => ownText(lines, symbols, i));
  const lex = bm25Texts(own, issue.terms);
  const maxLex = Math.max(...lex, 0);
  const inFile = frames.filter((f) => framePathIs(f.path, path));
  const ranked = symbols.map((s, i): RankedSymbol => {
    const reasons: string[] = [];
    let score = 0;
    const short = s.name.split(".").pop() ?? s.name;
    const named = issue.identifiers.get(short);
    if (named !== undefined) {
      score += WEIGHTS.def * Math.min(named, 2);
      reasons.push(`defines ${short}, named in the issue`);
    }
    const owner = s.name.includes(".") ? s.name.split(".")[0] : undefined;
    if (owner && issue.identifiers.has(owner)) {
      score += WEIGHTS.owner;
      reasons.push(`member of ${owner}, named in the issue`);
    }
    const body = words(own[i] ?? "");
    const used = [...issue.identifiers.keys()].filter((id) => id !== short && id !== owner && body.has(id));
    if (used.length > 0) {
      score += WEIGHTS.use * Math.min(1, used.length / 3);
      reasons.push(`uses ${used.slice(0, 3).join(", ")}`);
    }
    const l = maxLex > 0 ? (lex[i] ?? 0) / maxLex : 0;
    score += WEIGHTS.lex * l;
    if (l > 0.3) {
      const terms = matchedTerms(own[i] ?? "", issue.terms);
      if (terms.length > 0) reasons.push(`lexical match: ${terms.join(", ")}`);
    }
    const hit = inFile.find((f) => f.line >= s.startLine && f.line <= s.endLine && innermost(symbols, i, f.line));
    if (hit) {
      score += WEIGHTS.trace;
      reasons.push(`stack trace line ${hit.line}`);
    }
    return {
      name: s.name,
      kind: s.kind,
      startLine: s.startLine,
      endLine: s.endLine,
      score: Math.round(score * 1000) / 1000,
      reasons,
    };
  });
  return ranked.filter((r) => r.score > 0).sort((a, b) => b.score - a.score || a.startLine - b.startLine);
}

/** Whether no child of symbol `i` also holds `line`. */
function innermost(symbols: readonly FileSymbol[], i: number, line: number): boolean {
  return !symbols.some((c) => symbols[c.parent ?? -1] === symbols[i] && c.startLine <= line && line <= c.endLine);
}

/** Sets the top `n` symbols of each chosen file (files that cannot be read or parsed get none). */
export async function addTopSymbols(
  chosen: { path: string; symbols?: RankedSymbol[] }[],
  corpus: Corpus,
  issue: IssueQuery,
  issueText: string,
  n: number,
): Promise<void> {
  const frames = stackFrames(issueText);
  const read = await Promise.all(
    chosen.map(async (f) => {
      const text = await corpus.files[corpus.byPath.get(f.path) ?? -1]?.read().catch(() => undefined);
      return text === undefined ? [] : [{ f, path: f.path, text }];
    }),
  ).then((r) => r.flat());
  const symbols = await filesSymbols(read);
  read.forEach(({ f, text }, k) => {
    f.symbols = rankSymbols(f.path, text, symbols[k] ?? [], issue, frames).slice(0, n);
  });
}
