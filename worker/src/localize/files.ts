import { type Dirent, lstatSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { isCodePath, TEXT_EXTENSIONS } from "./languages";

/** A source file of a repository: local directory entry or GitHub blob. */
export interface RepoFile {
  /** Repository-relative, `/`-separated. */
  path: string;
  size: number;
  read(): Promise<string>;
  /**
   * Optional stable identity of the content (a git blob sha, or a stat fingerprint); when
   * given, cached statistics are reused without reading the file.
   */
  key?: string;
  /**
   * Absolute path of the file on this machine, when it is a local file: a localize thread then
   * reads it itself (the same text as `read`) instead of being sent its content.
   */
  local?: string;
}

export interface DirectoryOptions {
  /** Files larger than this are skipped (bytes). Default 1 MiB. */
  maxBytes?: number;
  /** Key files by size + mtime + inode so a warm cache avoids reading them. Default true. */
  statKeys?: boolean;
}

const SKIP_DIRS = new Set([
  "node_modules",
  "vendor",
  "vendors",
  "third_party",
  "third-party",
  "thirdparty",
  "bower_components",
  "site-packages",
  "__pycache__",
  "dist",
  "build",
  "target",
  "coverage",
  "venv",
  "Pods",
  "Carthage",
  "_build",
  "htmlcov",
  "generated",
  "__generated__",
]);
const GENERATED =
  /(?:\.min\.(?:js|css)|\.map|\.lock|-lock\.json|lock\.yaml|_pb2(?:_grpc)?\.pyi?|\.pb\.go|\.g\.dart|\.generated\.\w+|\.designer\.cs|\.bundle\.js|\.d\.ts)$/;

/** Whether a repository path looks like source or documentation worth indexing. */
export function isIndexablePath(path: string): boolean {
  const base = path.slice(path.lastIndexOf("/") + 1);
  if (GENERATED.test(base)) return false;
  if (isCodePath(path)) return true;
  const dot = base.lastIndexOf(".");
  return dot > 0 && TEXT_EXTENSIONS.has(base.slice(dot + 1).toLowerCase());
}

/**
 * Source files under `dir` (read lazily), skipping `.git` and other hidden folders,
 * dependency and build folders, vendored and generated files, binaries, symlinks and files
 * over `maxBytes`. Never writes anything.
 */
export async function filesFromDirectory(dir: string, options: DirectoryOptions = {}): Promise<RepoFile[]> {
  const maxBytes = options.maxBytes ?? 1 << 20;
  const statKeys = options.statKeys ?? true;
  const out: RepoFile[] = [];
  // Synchronous calls: for tens of thousands of small files they are several times faster
  // than the promise API, whose per-call overhead dominates.
  const walk = (rel: string): void => {
    let entries: Dirent[];
    try {
      entries = readdirSync(rel ? join(dir, rel) : dir, { withFileTypes: true });
    } catch {
      return;
    }
    for (const e of entries) {
      const name = e.name;
      const path = rel ? `${rel}/${name}` : name;
      if (e.isDirectory()) {
        if (!name.startsWith(".") && !SKIP_DIRS.has(name)) walk(path);
        continue;
      }
      if (!e.isFile() || !isIndexablePath(path)) continue;
      const abs = join(dir, path);
      const st = lstatSync(abs, { throwIfNoEntry: false });
      if (!st?.isFile() || st.size > maxBytes) continue;
      out.push({
        path,
        size: st.size,
        read: async () => readFileSync(abs, "utf8"),
        local: abs,
        ...(statKeys ? { key: `${path}:${st.size}:${st.mtimeMs}:${st.ino}` } : {}),
      });
    }
  };
  walk("");
  return out.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

/** True when a text looks binary (NUL bytes in its first 8 KiB). */
export const looksBinary = (text: string): boolean => text.slice(0, 8192).includes("\u0000");

/**
 * `looksBinary` of the text these UTF-8 bytes decode to, mostly without decoding them: its first
 * 8192 UTF-16 units come from at most the first 3 × 8192 bytes, and only a 0 byte decodes to NUL.
 */
export function looksBinaryBytes(bytes: Uint8Array): boolean {
  const head = bytes.subarray(0, 3 * 8192);
  const nul = head.indexOf(0);
  if (nul < 0) return false;
  if (nul < 8192 && !head.subarray(0, nul).some((b) => b >= 0x80)) return true;
  return looksBinary(Buffer.from(head.buffer, head.byteOffset, head.length).toString("utf8"));
}
