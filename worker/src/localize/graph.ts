import type { LanguageId } from "./languages";
import { dirname, normalizePath, type RepoPaths } from "./paths";

/** Directed import edges between repository files (importer → imported). */
export class ImportGraph {
  readonly out = new Map<string, Set<string>>();
  readonly in = new Map<string, Set<string>>();
  readonly nodes = new Set<string>();

  addNode(p: string): void {
    this.nodes.add(p);
  }

  addEdge(from: string, to: string): void {
    if (from === to) return;
    this.nodes.add(from);
    this.nodes.add(to);
    link(this.out, from, to);
    link(this.in, to, from);
  }

  get edgeCount(): number {
    let n = 0;
    for (const s of this.out.values()) n += s.size;
    return n;
  }

  importsOf(p: string): ReadonlySet<string> {
    return this.out.get(p) ?? new Set();
  }

  importersOf(p: string): ReadonlySet<string> {
    return this.in.get(p) ?? new Set();
  }
}

function link(map: Map<string, Set<string>>, a: string, b: string): void {
  let s = map.get(a);
  if (!s) {
    s = new Set();
    map.set(a, s);
  }
  s.add(b);
}

const JS_EXTS = [
  "",
  ".ts",
  ".tsx",
  ".js",
  ".jsx",
  ".mjs",
  ".cjs",
  ".mts",
  ".cts",
  "/index.ts",
  "/index.tsx",
  "/index.js",
  "/index.jsx",
];
const MAX_TARGETS = 12;

/** Repository files an import specifier of `from` refers to (empty for external packages). */
export function resolveImport(lang: LanguageId, from: string, spec: string, paths: RepoPaths): string[] {
  const dir = dirname(from);
  const rel = (p: string, exts: readonly string[]): string[] => {
    const base = normalizePath(dir ? `${dir}/${p}` : p);
    if (base === undefined) return [];
    for (const e of exts) if (paths.has(base + e)) return [base + e];
    return [];
  };
  const nearest = (list: string[]): string[] => {
    if (list.length <= 1) return list;
    // Prefer the candidate sharing the longest directory prefix with the importer.
    const score = (p: string): number => {
      let i = 0;
      while (i < p.length && p[i] === from[i]) i++;
      return i * 1000 - p.length;
    };
    return [...list].sort((a, b) => score(b) - score(a)).slice(0, 1);
  };
  const sameLang = (list: string[], re: RegExp): string[] => list.filter((p) => re.test(p));
  switch (lang) {
    case "python": {
      const m = /^(\.*)(.*)$/.exec(spec);
      const dots = m?.[1]?.length ?? 0;
      const mod = (m?.[2] ?? "").replace(/\./g, "/");
      if (dots > 0) {
        const up = "../".repeat(dots - 1);
        return rel(`${up}${mod}`, [".py", "/__init__.py", ".pyi"]);
      }
      return nearest(sameLang(paths.bySuffix(mod), /\.pyi?$/));
    }
    case "typescript":
    case "tsx":
    case "javascript": {
      if (spec.startsWith(".")) return rel(spec, JS_EXTS);
      const alias = /^[@~]\/(.+)$/.exec(spec)?.[1];
      return alias ? nearest(sameLang(paths.bySuffix(alias.replace(/\.\w+$/, "")), /\.[cm]?[jt]sx?$/)) : [];
    }
    case "go": {
      const segs = spec.split("/");
      for (let k = Math.min(segs.length, 6); k >= 1 && segs.length > 1; k--) {
        const hit = sameLang(paths.byDirSuffix(segs.slice(-k).join("/")), /\.go$/).filter(
          (p) => !p.endsWith("_test.go"),
        );
        if (hit.length > 0) return hit.slice(0, MAX_TARGETS);
      }
      return [];
    }
    case "java": {
      if (spec.endsWith(".*"))
        return sameLang(paths.byDirSuffix(spec.slice(0, -2).replace(/\./g, "/")), /\.java$/).slice(0, MAX_TARGETS);
      const segs = spec.split(".");
      for (let k = segs.length; k >= 2; k--) {
        const hit = sameLang(paths.bySuffix(segs.slice(0, k).join("/")), /\.java$/);
        if (hit.length > 0) return nearest(hit);
      }
      return [];
    }
    case "rust": {
      if (spec.startsWith("mod:")) {
        const name = spec.slice(4);
        const own = from.match(/(?:^|\/)(?:mod|lib|main)\.rs$/) ? "" : `${from.slice(dir.length + 1, -3)}/`;
        return rel(`${own}${name}`, [".rs", "/mod.rs"]);
      }
      const segs = spec.split("::").filter((s) => !["crate", "self", "super"].includes(s));
      for (let k = segs.length; k >= 1; k--) {
        const hit = sameLang(paths.bySuffix(segs.slice(0, k).join("/")), /\.rs$/);
        if (hit.length > 0) return nearest(hit);
      }
      return [];
    }
    case "ruby":
      if (spec.startsWith(".")) return rel(spec, [".rb", ""]);
      return nearest(sameLang(paths.bySuffix(spec.replace(/\.rb$/, "")), /\.rb$/));
    case "c":
    case "cpp": {
      const local = rel(spec, [""]);
      if (local.length > 0) return local;
      return nearest(
        paths.matchMention(spec.split("/")).paths.filter((p) => p.toLowerCase().endsWith(spec.toLowerCase())),
      );
    }
    case "csharp": {
      const segs = spec.split(".");
      for (let k = 0; k < segs.length - 1 || k === 0; k++) {
        const hit = sameLang(paths.byDirSuffix(segs.slice(k).join("/")), /\.cs$/);
        if (hit.length > 0) return hit.slice(0, MAX_TARGETS);
      }
      return [];
    }
    case "php": {
      if (/\.php$/.test(spec)) {
        const local = rel(spec, [""]);
        return local.length > 0 ? local : nearest(sameLang(paths.bySuffix(spec.slice(0, -4)), /\.php$/));
      }
      const segs = spec.split("\\");
      for (let k = 0; k < segs.length - 1 || k === 0; k++) {
        const hit = sameLang(paths.bySuffix(segs.slice(k).join("/")), /\.php$/);
        if (hit.length > 0) return nearest(hit);
      }
      return [];
    }
  }
}
