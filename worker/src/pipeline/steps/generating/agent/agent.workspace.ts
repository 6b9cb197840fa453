import fs from "node:fs/promises";
import path from "node:path";
import { createPatch } from "diff";
import type { FileChange, GeneratedSolution } from "@fixloop/contract";
import { writeInside } from "../../../../tests-run/workspace";
import { applyGeneratedFiles } from "../apply-edits";
import { onDisk, PathRefused, repoPath, writablePath } from "./agent.paths";

/** Largest file the agent reads or edits (as step 4's unseen files). */
export const MAX_FILE_BYTES = 512 * 1024;
/** Directories the search and listing pass over: dependencies and build output, never the repository's own code. */
const SKIP_DIRS = new Set([".git", "node_modules", "__pycache__", ".venv", "venv", ".tox", "target", "dist", "build"]);
const MAX_WALK_FILES = 20_000;

/**
 * The agent's working copy: the run's base tree on disk (never written) and its edits in memory
 * over it. Reads see the edits; `materialize` writes them into a private copy for a command.
 */
export class WorkingCopy {
  private readonly edits = new Map<string, string | null>();

  constructor(readonly root: string) {}

  /** The current text of a file (null: absent or deleted); binary and oversized files are refused. */
  async read(rel: string): Promise<string | null> {
    if (this.edits.has(rel)) return this.edits.get(rel) ?? null;
    return this.readBase(rel);
  }

  private async readBase(rel: string): Promise<string | null> {
    const at = await onDisk(this.root, rel);
    if (!at) return null;
    if (at.dir) throw new PathRefused(`${rel} is a directory`);
    const st = await fs.stat(at.abs);
    if (st.size > MAX_FILE_BYTES) throw new PathRefused(`${rel} is larger than ${MAX_FILE_BYTES / 1024} KiB`);
    const buf = await fs.readFile(at.abs);
    if (buf.includes(0)) throw new PathRefused(`${rel} is a binary file`);
    return buf.toString("utf8");
  }

  /** The entries of a directory (directories end with `/`), edits included. */
  async list(rel: string): Promise<string[] | null> {
    const names = new Set<string>();
    const at = await onDisk(this.root, rel);
    if (at && !at.dir) throw new PathRefused(`${rel} is a file, not a directory`);
    if (at) {
      for (const e of await fs.readdir(at.abs, { withFileTypes: true }))
        if (e.name !== ".git") names.add(e.isDirectory() ? `${e.name}/` : e.name);
    }
    const prefix = rel ? `${rel}/` : "";
    for (const [p, text] of this.edits) {
      if (!p.startsWith(prefix)) continue;
      const rest = p.slice(prefix.length).split("/");
      const name = rest.length > 1 ? `${rest[0]}/` : (rest[0] ?? "");
      if (text === null && rest.length === 1) names.delete(name);
      else if (text !== null) names.add(name);
    }
    if (!at && names.size === 0) return null;
    return [...names].sort();
  }

  /** Every regular file under `rel` (edits included, deleted ones left out), links and skipped directories passed over. */
  async *files(rel: string): AsyncGenerator<string> {
    const seen = new Set<string>();
    let walked = 0;
    const start = await onDisk(this.root, rel);
    const stack: string[] = start?.dir ? [rel] : [];
    if (start && !start.dir) {
      seen.add(rel);
      if (this.edits.get(rel) !== null) yield rel;
    }
    while (stack.length && walked < MAX_WALK_FILES) {
      const dir = stack.pop() ?? "";
      const entries = await fs.readdir(path.join(this.root, dir), { withFileTypes: true }).catch(() => []);
      for (const e of entries.sort((a, b) => (a.name < b.name ? 1 : -1))) {
        const p = dir ? `${dir}/${e.name}` : e.name;
        if (e.isDirectory() && !SKIP_DIRS.has(e.name)) stack.push(p);
        else if (e.isFile()) {
          walked++;
          seen.add(p);
          if (this.edits.get(p) !== null) yield p;
        }
      }
    }
    const prefix = rel ? `${rel}/` : "";
    for (const [p, text] of this.edits)
      if (text !== null && !seen.has(p) && (p === rel || p.startsWith(prefix))) yield p;
  }

  /**
   * One edit in step 4's search/replace format, applied whole or not at all: a search text that does
   * not match leaves the file as it was. Returns the diff it made.
   */
  async edit(file: GeneratedSolution["files"][number]): Promise<{ filename: string; diff: string }> {
    const rel = writablePath(file.filename);
    const current = await this.read(rel);
    const originals = new Map(current === null ? [] : [[rel, current]]);
    if (file.action === "create" && current !== null)
      throw new PathRefused(`${rel} already exists: modify it with search/replace edits`);
    const { changes, failures } = applyGeneratedFiles([{ ...file, filename: rel }], originals);
    if (failures.length)
      throw new PathRefused(`Edit not applied (nothing changed): ${failures.map((f) => f.reason).join("; ")}`);
    const change = changes[0];
    if (!change) throw new PathRefused("Edit not applied: nothing to change");
    const next = change.action === "delete" ? null : change.content;
    const base = await this.readBase(rel).catch(() => null);
    if (next === base) this.edits.delete(rel);
    else this.edits.set(rel, next);
    return { filename: rel, diff: createPatch(rel, current ?? "", next ?? "", "", "", { context: 2 }) };
  }

  /** The edits as the change step 5 validates: each file against the base tree. */
  async changes(): Promise<FileChange[]> {
    const out: FileChange[] = [];
    for (const [filename, content] of [...this.edits].sort(([a], [b]) => (a < b ? -1 : 1))) {
      const original = await this.readBase(filename).catch(() => null);
      if (content === null) {
        if (original !== null) out.push({ filename, action: "delete", content: "", originalContent: original });
      } else if (original === null) out.push({ filename, action: "create", content, originalContent: "" });
      else if (original !== content) out.push({ filename, action: "modify", content, originalContent: original });
    }
    return out;
  }

  /** Writes the edits into `dir`, a private copy of the base tree (never through a link). */
  async materialize(dir: string): Promise<void> {
    for (const [rel, content] of this.edits) await writeInside(dir, rel, content);
  }

  get edited(): number {
    return this.edits.size;
  }
}

export { repoPath };
