import fs from "node:fs/promises";
import path from "node:path";
import { deniedPathReason } from "@fixloop/contract";

/** A tool's path refused by a wall: the model is told why, and nothing was read or written. */
export class PathRefused extends Error {
  constructor(message: string) {
    super(message);
    this.name = "PathRefused";
  }
}

/**
 * A repository-relative path the agent gave, checked before anything touches the disk: no absolute
 * path, no `..`, no `.git`, no control or invisible characters. `""` and `.` are the root.
 */
export function repoPath(given: unknown): string {
  if (typeof given !== "string") throw new PathRefused("The path must be a string");
  const raw = given.trim();
  if (raw === "" || raw === "." || raw === "./") return "";
  if (raw.includes("\0") || /[\p{Cc}\p{Default_Ignorable_Code_Point}\p{Bidi_Control}]/u.test(raw))
    throw new PathRefused(`Refused: ${JSON.stringify(raw)} contains control or invisible characters`);
  if (path.posix.isAbsolute(raw) || raw.startsWith("~") || /^[A-Za-z]:/.test(raw) || raw.includes("\\"))
    throw new PathRefused(
      `Refused: ${raw} is not a path inside the repository (give it relative to the repository root)`,
    );
  const parts = raw.split("/").filter((p) => p !== "" && p !== ".");
  if (parts.includes("..")) throw new PathRefused(`Refused: ${raw} leaves the repository (..)`);
  if (parts.some((p) => p.toLowerCase() === ".git")) throw new PathRefused(`Refused: ${raw} is inside .git`);
  return parts.join("/");
}

/** A path the agent may write: the same policy as every patch (protected paths, .git, secrets, .env). */
export function writablePath(given: unknown): string {
  const rel = repoPath(given);
  if (!rel) throw new PathRefused("Refused: give a file path, not the repository root");
  const denied = deniedPathReason(rel);
  if (denied) throw new PathRefused(`Refused: ${rel}: ${denied}`);
  return rel;
}

/**
 * The absolute path of `rel` under `root`, refusing one that passes through a symbolic link
 * (a link in the repository could point anywhere on the worker's disk). Null when it does not exist.
 */
export async function onDisk(root: string, rel: string): Promise<{ abs: string; dir: boolean } | null> {
  let cur = root;
  for (const part of rel ? rel.split("/") : []) {
    cur = path.join(cur, part);
    const st = await fs.lstat(cur).catch(() => null);
    if (!st) return null;
    if (st.isSymbolicLink()) throw new PathRefused(`Refused: ${rel} is or passes through a symbolic link`);
  }
  const st = await fs.lstat(cur);
  if (!st.isDirectory() && !st.isFile()) throw new PathRefused(`Refused: ${rel} is not a regular file or directory`);
  return { abs: cur, dir: st.isDirectory() };
}
