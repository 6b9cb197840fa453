import { createHash } from "node:crypto";
import { constants as fsConstants } from "node:fs";
import fs from "node:fs/promises";
import path from "node:path";
import zlib from "node:zlib";

export class ArchiveError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ArchiveError";
  }
}

/** One entry of an extracted tree: its path, git blob sha and size; links are listed, never written. */
export interface ArchiveFile {
  path: string;
  sha: string;
  size: number;
  link?: true;
}

/** The sha git gives a blob of these bytes (`blob <len>\0<content>`), as the trees API reports it. */
export const gitBlobSha = (data: Buffer): string =>
  createHash("sha1").update(`blob ${data.length}\0`).update(data).digest("hex");

const BLOCK = 512;
/** Headers, pax records and padding on top of the content: a tar is never much bigger than this. */
const overheadFor = (maxBytes: number) => Math.ceil(maxBytes * 1.25) + 64 * 1024 * 1024;
const WRITE_FLAGS = fsConstants.O_WRONLY | fsConstants.O_CREAT | fsConstants.O_EXCL | fsConstants.O_NOFOLLOW;

const cstr = (b: Buffer, from: number, len: number) => {
  const s = b.subarray(from, from + len);
  const end = s.indexOf(0);
  return s.subarray(0, end < 0 ? s.length : end).toString("utf8");
};
const octal = (b: Buffer, from: number, len: number) => {
  const s = cstr(b, from, len).trim();
  if (!/^[0-7]*$/.test(s)) throw new ArchiveError("The archive has a malformed header");
  return s ? parseInt(s, 8) : 0;
};

/** pax `<len> key=value\n` records. */
function paxRecords(data: Buffer): Map<string, string> {
  const out = new Map<string, string>();
  let at = 0;
  while (at < data.length) {
    const sp = data.indexOf(0x20, at);
    const len = Number(data.subarray(at, sp).toString());
    if (sp < 0 || !Number.isInteger(len) || len <= 0) break;
    const rec = data.subarray(sp + 1, at + len - 1).toString("utf8");
    const eq = rec.indexOf("=");
    if (eq > 0) out.set(rec.slice(0, eq), rec.slice(eq + 1));
    at += len;
  }
  return out;
}

/** The path below the archive's single top-level folder, or a refusal when it would leave the tree. */
function inside(raw: string, top: { name: string | null }): string | null {
  if (raw.startsWith("/") || /^[a-zA-Z]:/.test(raw) || raw.includes("\\"))
    throw new ArchiveError(`The archive has an absolute path: ${raw}`);
  const parts = raw.split("/").filter((p) => p !== "" && p !== ".");
  if (parts.includes("..")) throw new ArchiveError(`The archive has a path that leaves the tree: ${raw}`);
  const [first, ...rest] = parts;
  if (!first) return null;
  top.name ??= first;
  if (first !== top.name) throw new ArchiveError("The archive has more than one top-level folder");
  if (rest.includes(".git")) return null;
  return rest.length ? rest.join("/") : null;
}

/**
 * Unpacks a gzip tar (GitHub's tarball: one `<owner>-<repo>-<sha>/` folder) into `dir`: regular
 * files and folders only, never through or as a link. Refused: paths that are absolute or climb
 * out, more than one top folder, content above `maxBytes` in total (counted while inflating, so a
 * decompression bomb stops at the limit). Symbolic links are listed (with their target's sha, as
 * git has it) but not written; hard links, devices and FIFOs are left out.
 */
export async function extractTarball(gz: Buffer, dir: string, maxBytes: number): Promise<ArchiveFile[]> {
  let tar: Buffer;
  try {
    tar = zlib.gunzipSync(gz, { maxOutputLength: overheadFor(maxBytes) });
  } catch (err) {
    if (err instanceof RangeError || (err as NodeJS.ErrnoException).code === "ERR_BUFFER_TOO_LARGE")
      throw new ArchiveError(`The repository archive inflates beyond the ${mib(maxBytes)} MiB workspace limit`);
    throw new ArchiveError("The repository archive is not a valid gzip file");
  }
  const files: ArchiveFile[] = [];
  const top = { name: null as string | null };
  let total = 0;
  let pax = new Map<string, string>();
  let at = 0;
  while (at + BLOCK <= tar.length) {
    const h = tar.subarray(at, at + BLOCK);
    if (h.every((x) => x === 0)) break;
    const size = octal(h, 124, 12);
    const type = String.fromCharCode(h[156] ?? 0);
    const body = at + BLOCK;
    const next = body + Math.ceil(size / BLOCK) * BLOCK;
    if (next > tar.length + BLOCK) throw new ArchiveError("The archive is truncated");
    const data = tar.subarray(body, body + size);
    at = next;
    if (type === "g") continue; // the commit id git archive records
    if (type === "x") {
      pax = paxRecords(data);
      continue;
    }
    const prefix = cstr(h, 345, 155);
    const name = pax.get("path") ?? (prefix ? `${prefix}/${cstr(h, 0, 100)}` : cstr(h, 0, 100));
    const linkName = pax.get("linkpath") ?? cstr(h, 157, 100);
    pax = new Map();
    const rel = inside(name, top);
    if (rel === null) continue;
    if (type === "5") continue; // folders are made as files need them
    if (type === "2") {
      files.push({ path: rel, sha: gitBlobSha(Buffer.from(linkName)), size: linkName.length, link: true });
      continue;
    }
    if (type !== "0" && type !== "\0" && type !== "7") continue; // hard links, devices, FIFOs
    total += size;
    if (total > maxBytes) throw new ArchiveError(`The repository is above the ${mib(maxBytes)} MiB workspace limit`);
    await writeFile(dir, rel, data, (octal(h, 100, 8) & 0o111) !== 0);
    files.push({ path: rel, sha: gitBlobSha(data), size });
  }
  return files;
}

const mib = (n: number) => Math.round(n / 1048576);

async function writeFile(dir: string, rel: string, data: Buffer, exec: boolean): Promise<void> {
  let cur = dir;
  for (const part of rel.split("/").slice(0, -1)) {
    cur = path.join(cur, part);
    const st = await fs.lstat(cur).catch(() => null);
    if (!st) await fs.mkdir(cur);
    else if (!st.isDirectory()) throw new ArchiveError(`The archive puts a file under a non-folder: ${rel}`);
  }
  const fh = await fs
    .open(path.join(dir, rel), WRITE_FLAGS, exec ? 0o755 : 0o644)
    .catch((err: NodeJS.ErrnoException) => {
      throw new ArchiveError(`The archive writes ${rel} twice or over a link (${err.code ?? "error"})`);
    });
  try {
    await fh.writeFile(data);
  } finally {
    await fh.close();
  }
}
