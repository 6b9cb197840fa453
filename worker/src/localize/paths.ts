/** Lookup structures over a repository's file paths: suffixes, directories, basenames. */
const MAX_SUFFIX = 8;

const stripExt = (p: string): string => {
  const slash = p.lastIndexOf("/");
  const dot = p.lastIndexOf(".");
  return dot > slash + 1 ? p.slice(0, dot) : p;
};
export const dirname = (p: string): string => {
  const i = p.lastIndexOf("/");
  return i < 0 ? "" : p.slice(0, i);
};
export const basename = (p: string): string => p.slice(p.lastIndexOf("/") + 1);

/** Normalizes `a/./b/../c` to `a/c`; `undefined` when it climbs out of the repository. */
export function normalizePath(p: string): string | undefined {
  const out: string[] = [];
  for (const seg of p.split("/")) {
    if (seg === "" || seg === ".") continue;
    if (seg === "..") {
      if (out.length === 0) return undefined;
      out.pop();
    } else out.push(seg);
  }
  return out.join("/");
}

/** A repository-relative path that cannot point outside the repository. */
export const isSafeRepoPath = (p: string): boolean =>
  p !== "" && !p.startsWith("/") && !/^[A-Za-z]:/.test(p) && !p.includes("\\") && normalizePath(p) === p;

export class RepoPaths {
  readonly all: ReadonlySet<string>;
  #byBase = new Map<string, string[]>();
  #suffix?: Map<string, string[]>;
  #dirs?: Map<string, string[]>;

  constructor(paths: Iterable<string>) {
    this.all = new Set(paths);
    for (const p of this.all) push(this.#byBase, basename(p).toLowerCase(), p);
  }

  has(p: string): boolean {
    return this.all.has(p);
  }

  /** Files whose extension-less path ends with `key` (lower-case, `/`-separated). */
  bySuffix(key: string): string[] {
    if (!this.#suffix) {
      this.#suffix = new Map();
      for (const p of this.all) {
        let segs = stripExt(p).toLowerCase().split("/");
        const last = segs[segs.length - 1];
        if (last === "__init__" || last === "mod" || last === "index") segs = segs.slice(0, -1);
        for (let k = 1; k <= Math.min(MAX_SUFFIX, segs.length); k++) push(this.#suffix, segs.slice(-k).join("/"), p);
      }
    }
    return this.#suffix.get(key.toLowerCase()) ?? [];
  }

  /** Files directly inside directory `dir` (exact, repository-relative). */
  inDirectory(dir: string): string[] {
    return this.byDirSuffix(dir).filter((p) => dirname(p) === dir);
  }

  /** Files directly inside directories whose path ends with `key` (lower-case). */
  byDirSuffix(key: string): string[] {
    if (!this.#dirs) {
      this.#dirs = new Map();
      for (const p of this.all) {
        const segs = dirname(p).toLowerCase().split("/");
        for (let k = 1; k <= Math.min(MAX_SUFFIX, segs.length); k++) push(this.#dirs, segs.slice(-k).join("/"), p);
      }
    }
    return this.#dirs.get(key.toLowerCase()) ?? [];
  }

  /**
   * Files matching a path named in text (possibly absolute, from another machine): the
   * files sharing the longest run of trailing segments with it, and that run's length.
   */
  matchMention(segments: readonly string[]): { paths: string[]; matched: number } {
    const last = segments[segments.length - 1];
    if (!last) return { paths: [], matched: 0 };
    const candidates = this.#byBase.get(last.toLowerCase()) ?? [];
    let best: string[] = [];
    let bestLen = 0;
    for (const p of candidates) {
      const ps = p.toLowerCase().split("/");
      let k = 0;
      while (
        k < ps.length &&
        k < segments.length &&
        ps[ps.length - 1 - k] === segments[segments.length - 1 - k]?.toLowerCase()
      )
        k++;
      if (k > bestLen) {
        best = [p];
        bestLen = k;
      } else if (k === bestLen && k > 0) best.push(p);
    }
    return { paths: best, matched: bestLen };
  }
}

function push<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}
