import fs from "node:fs/promises";
import path from "node:path";

/**
 * Where, in this worker's on-disk tree cache, a blob's bytes are (by git blob sha). Filled when a
 * tree is listed from the cache; a path gone since (the tree was evicted) is forgotten and the
 * caller reads the blob elsewhere.
 */
const where = new Map<string, string>();
const MAX_ENTRIES = 1_000_000;

export function rememberBlobs(dir: string, files: { path: string; sha: string; link?: boolean }[]): void {
  if (where.size + files.length > MAX_ENTRIES) where.clear();
  for (const f of files) if (!f.link) where.set(f.sha, path.join(dir, f.path));
}

/** The blob's text from disk, or null when no cached tree holds it. */
export async function localBlob(sha: string): Promise<string | null> {
  const at = where.get(sha);
  if (!at) return null;
  try {
    return await fs.readFile(at, "utf8");
  } catch {
    where.delete(sha);
    return null;
  }
}
