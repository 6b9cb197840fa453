import { forEachTerm, isStopword } from "./tokenize";

/** A file path named in the issue; `frame` is set for stack-trace frames (0 = outermost). */
export interface PathMention {
  text: string;
  weight: number;
  frame?: number;
  frames?: number;
}

/** What the issue text says, split into the signals the ranker uses. */
export interface IssueQuery {
  /** Index terms with query weights (title terms count double). */
  terms: Map<string, number>;
  paths: PathMention[];
  /** Code identifiers (original spelling) with weights; backticked or called ones weigh more. */
  identifiers: Map<string, number>;
  /** Dotted names such as `django.db.models.query` or `sklearn.cluster`. */
  dotted: Set<string>;
  /** Names imported in the issue's code (`from a.b import C`) → the module they come from. */
  scopes: Map<string, string>;
}

const EXTS =
  "py|pyi|pyx|ts|tsx|js|jsx|mjs|cjs|go|java|rs|rb|c|h|cc|cpp|cxx|hpp|hh|cs|php|kt|scala|swift|" +
  "m|mm|lua|ex|exs|vue|svelte|json|ya?ml|toml|cfg|ini|rst|md|txt|html|css|scss|sql|sh";
const PATH_RE = new RegExp(String.raw`(?:[A-Za-z]:)?[\w.\-/\\\[\]~@+]*?[\w\-]+\.(?:${EXTS})\b`, "g");
const FRAME_PATTERNS = [
  /File "([^"]+)", line \d+(?:, in (\w+))?/g, // Python
  /\bat (?:[\w$.<>]+ )?\(?((?:[A-Za-z]:)?[\w./\\-]+\.[a-z]+):\d+(?::\d+)?\)?/g, // JS / Go / Ruby
  /\bat ([\w$.]+)\.[\w$<>]+\((\w+\.(?:java|kt|scala)):\d+\)/g, // JVM: package.Class.method(File.java:1)
  /^\s*((?:[A-Za-z]:)?[\w./\\-]+\.(?:rb|go|rs|php|c|cc|cpp|h)):\d+/gm, // file:line
];

const CAMEL = /\b[A-Za-z_][a-z0-9_]*[A-Z][A-Za-z0-9_]*\b|\b[A-Z][a-z0-9]+[A-Z][A-Za-z0-9_]*\b/g;
const SNAKE = /\b_*[A-Za-z][A-Za-z0-9]*(?:_+[A-Za-z0-9]+)+_*\b/g;
const CALL = /\b([A-Za-z_][A-Za-z0-9_]*)\s*\(/g;
const DOTTED = /\b[A-Za-z_][\w]*(?:\.[A-Za-z_][\w]*)+\b/g;
const BACKTICK = /`([^`\n]{1,200})`/g;
const FROM_IMPORT = /^[ \t>.]*from\s+([A-Za-z_][\w.]*)\s+import\s+\(?([\w \t,]+)\)?/gm;
/** Names so common in code that defining them says nothing about a file. */
const COMMON = new Set(
  (
    "print len list dict str int float set tuple range isinstance open super type object repr hash " +
    "main test run get put call init new next iter format join split append update copy items keys " +
    "values apply value name data args kwargs result error warn"
  ).split(" "),
);

const add = (m: Map<string, number>, k: string, w: number): void => {
  m.set(k, Math.max(m.get(k) ?? 0, w));
};

export function parseIssue(title: string, body: string): IssueQuery {
  const text = `${title}\n${body}`;
  const terms = new Map<string, number>();
  forEachTerm(title, (t) => terms.set(t, (terms.get(t) ?? 0) + 2));
  forEachTerm(body, (t) => terms.set(t, (terms.get(t) ?? 0) + 1));
  for (const [t, n] of terms) terms.set(t, 1 + Math.log(n));

  const paths: PathMention[] = [];
  const framePaths = new Set<string>();
  const identifiers = new Map<string, number>();
  const frameGroups: string[][] = [];
  for (const re of FRAME_PATTERNS) {
    const group: string[] = [];
    for (const m of text.matchAll(re)) {
      const p =
        re === FRAME_PATTERNS[2] ? `${(m[1] ?? "").split(".").slice(0, -1).join("/")}/${m[2] ?? ""}` : (m[1] ?? "");
      if (!p) continue;
      group.push(p);
      framePaths.add(p);
      if (re === FRAME_PATTERNS[0] && m[2] && m[2] !== "module") add(identifiers, m[2], 1);
    }
    if (group.length > 0) frameGroups.push(group);
  }
  for (const group of frameGroups)
    group.forEach((p, i) => paths.push({ text: p, weight: 1, frame: i, frames: group.length }));
  for (const m of text.matchAll(PATH_RE)) {
    const p = m[0];
    if (framePaths.has(p) || /^\d|^https?:|^www\./.test(p)) continue;
    paths.push({ text: p, weight: 1 });
  }

  const dotted = new Set<string>();
  for (const m of text.matchAll(DOTTED)) {
    if (/\.(?:py|js|ts|rs|go|rb|java|com|org|io|html|md|txt)$/.test(m[0])) continue;
    dotted.add(m[0]);
  }
  const scopes = new Map<string, string>();
  for (const m of text.matchAll(FROM_IMPORT)) {
    const mod = m[1] ?? "";
    for (const n of (m[2] ?? "").split(",")) {
      const name = n.trim().split(/\s+/)[0] ?? "";
      if (!/^[A-Za-z_]\w*$/.test(name) || name === "*") continue;
      scopes.set(name, mod);
      add(identifiers, name, 1.2);
    }
  }
  const code = new Set<string>();
  for (const m of text.matchAll(BACKTICK)) for (const w of (m[1] ?? "").match(/[A-Za-z_]\w*/g) ?? []) code.add(w);
  const titleWords = new Set(title.match(/[A-Za-z_]\w*/g) ?? []);
  const consider = (w: string, base: number): void => {
    if (w.length < 3 || isStopword(w.toLowerCase()) || COMMON.has(w)) return;
    // A plain lower-case word is weak evidence even when it looks like a call.
    let weight = /[A-Z_]/.test(w) ? base : base * 0.6;
    if (code.has(w)) weight += 0.5;
    if (titleWords.has(w)) weight += 0.5;
    add(identifiers, w, weight);
  };
  for (const m of text.matchAll(CAMEL)) consider(m[0], 1);
  for (const m of text.matchAll(SNAKE)) consider(m[0], 1);
  for (const m of text.matchAll(CALL)) consider(m[1] ?? "", 0.8);
  for (const d of dotted) for (const part of d.split(".")) if (/[A-Z_]/.test(part)) consider(part, 0.8);
  for (const w of code) if (/^[A-Za-z_]\w*$/.test(w)) consider(w, 0.8);
  return { terms, paths, identifiers, dotted, scopes };
}

/** Splits a mentioned path into normalized segments (drive letters, `./`, `..` dropped). */
export function mentionSegments(path: string): string[] {
  return path
    .replace(/^[A-Za-z]:/, "")
    .split(/[/\\]+/)
    .filter((s) => s !== "" && s !== "." && s !== ".." && s !== "~" && !/^\[.*\]$/.test(s));
}
