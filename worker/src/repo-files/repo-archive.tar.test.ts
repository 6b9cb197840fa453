import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import zlib from "node:zlib";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ArchiveError, extractTarball, gitBlobSha } from "./repo-archive.tar";

interface Entry {
  name: string;
  type?: string;
  data?: string | Buffer;
  link?: string;
  mode?: number;
}

/** A ustar archive written byte by byte, as a hostile server could send it. */
function tar(entries: Entry[]): Buffer {
  const blocks: Buffer[] = [];
  for (const e of entries) {
    const data = Buffer.isBuffer(e.data) ? e.data : Buffer.from(e.data ?? "");
    const h = Buffer.alloc(512);
    h.write(e.name, 0, 100);
    h.write(`${(e.mode ?? 0o644).toString(8).padStart(7, "0")}\0`, 100);
    h.write("0000000\0", 108);
    h.write("0000000\0", 116);
    h.write(`${data.length.toString(8).padStart(11, "0")}\0`, 124);
    h.write("00000000000\0", 136);
    h.write(e.type ?? "0", 156);
    if (e.link) h.write(e.link, 157, 100);
    h.write("ustar\0", 257);
    h.write("00", 263);
    h.fill(0x20, 148, 156);
    const sum = h.reduce((s, b) => s + b, 0);
    h.write(`${sum.toString(8).padStart(6, "0")}\0 `, 148);
    blocks.push(h, data, Buffer.alloc((512 - (data.length % 512)) % 512));
  }
  blocks.push(Buffer.alloc(1024));
  return zlib.gzipSync(Buffer.concat(blocks));
}

let dir: string;
let out: string;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "archive-"));
  out = path.join(dir, "tree");
  fs.mkdirSync(out);
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

const MiB = 1024 * 1024;
const written = (root: string): string[] =>
  fs
    .readdirSync(root, { recursive: true, withFileTypes: true })
    .filter((e) => !e.isDirectory())
    .map((e) => path.relative(root, path.join(e.parentPath, e.name)))
    .sort();

describe("unpacking a repository tarball", () => {
  it("writes GitHub's archive of a real repository below its top folder, with the blob shas git gives", async () => {
    const repo = path.join(dir, "src");
    const git = (...a: string[]) => execFileSync("git", ["-C", repo, ...a], { encoding: "utf8" }).trim();
    fs.mkdirSync(path.join(repo, "lib", "deep"), { recursive: true });
    fs.writeFileSync(path.join(repo, "README.md"), "hello\n");
    fs.writeFileSync(path.join(repo, "lib", "deep", "a.py"), "x = 1\n");
    fs.writeFileSync(path.join(repo, "run.sh"), "#!/bin/sh\n", { mode: 0o755 });
    fs.symlinkSync("../../etc/passwd", path.join(repo, "escape"));
    git("init", "-q");
    git("add", ".");
    git("-c", "user.name=a", "-c", "user.email=a@b", "commit", "-qm", "x");
    const gz = execFileSync("git", ["-C", repo, "archive", "--format=tar.gz", "--prefix=o-r-abc1234/", "HEAD"]);

    const files = await extractTarball(gz, out, MiB);

    expect(written(out)).toEqual(["README.md", "lib/deep/a.py", "run.sh"]);
    const shas = Object.fromEntries(
      git("ls-tree", "-r", "HEAD")
        .split("\n")
        .map((l) => [l.split("\t")[1], l.split(" ")[2]?.split("\t")[0]]),
    );
    expect(Object.fromEntries(files.map((f) => [f.path, f.sha]))).toEqual(shas);
    expect(files.find((f) => f.path === "escape")?.link).toBe(true);
    expect(fs.statSync(path.join(out, "run.sh")).mode & 0o111).not.toBe(0);
    expect(gitBlobSha(Buffer.from("hello\n"))).toBe(shas["README.md"]);
  });

  it.each([
    ["a path that climbs out", [{ name: "top/../../evil.txt", data: "x" }], /leaves the tree/],
    ["an absolute path", [{ name: "/tmp/evil.txt", data: "x" }], /absolute path/],
    [
      "a second top-level folder",
      [
        { name: "top/a", data: "x" },
        { name: "other/b", data: "y" },
      ],
      /more than one/,
    ],
  ])("refuses %s and writes nothing outside", async (_, entries, message) => {
    await expect(extractTarball(tar(entries), out, MiB)).rejects.toThrow(message);
    expect(fs.readdirSync(dir).sort()).toEqual(["tree"]);
    expect(fs.existsSync("/tmp/evil.txt")).toBe(false);
  });

  it("never writes a symbolic link, nor a file through one, nor a hard link", async () => {
    const gz = tar([
      { name: "top/link", type: "2", link: dir },
      { name: "top/link/planted.txt", data: "through the link" },
      { name: "top/hard", type: "1", link: "/etc/passwd" },
      { name: "top/fifo", type: "6" },
    ]);
    const files = await extractTarball(gz, out, MiB);
    expect(fs.lstatSync(path.join(out, "link")).isDirectory()).toBe(true); // a plain folder, made for the file
    expect(fs.existsSync(path.join(dir, "planted.txt"))).toBe(false);
    expect(fs.existsSync(path.join(out, "hard"))).toBe(false);
    expect(fs.existsSync(path.join(out, "fifo"))).toBe(false);
    expect(files.map((f) => [f.path, f.link ?? false])).toEqual([
      ["link", true],
      ["link/planted.txt", false],
    ]);
  });

  it("refuses a file written twice (the second could follow what the first made)", async () => {
    const gz = tar([
      { name: "top/a.txt", data: "one" },
      { name: "top/a.txt", data: "two" },
    ]);
    await expect(extractTarball(gz, out, MiB)).rejects.toThrow(ArchiveError);
    expect(fs.readFileSync(path.join(out, "a.txt"), "utf8")).toBe("one");
  });

  it("skips a .git folder inside the tree", async () => {
    const gz = tar([
      { name: "top/.git/hooks/post-checkout", data: "#!/bin/sh\nrm -rf /\n", mode: 0o755 },
      { name: "top/ok.txt", data: "ok" },
    ]);
    await extractTarball(gz, out, MiB);
    expect(written(out)).toEqual(["ok.txt"]);
  });

  it("refuses a repository above the size limit", async () => {
    const gz = tar([
      { name: "top/a.bin", data: Buffer.alloc(600 * 1024, 1) },
      { name: "top/b.bin", data: Buffer.alloc(600 * 1024, 2) },
    ]);
    await expect(extractTarball(gz, out, MiB)).rejects.toThrow(/above the 1 MiB workspace limit/);
  });

  it("stops inflating a decompression bomb at the limit instead of filling memory", async () => {
    // 256 MiB of zeros in a quarter MiB of gzip; the limit lets through about 65 MiB.
    const gz = zlib.gzipSync(Buffer.alloc(256 * MiB), { level: 1 });
    expect(gz.length).toBeLessThan(2 * MiB);
    await expect(extractTarball(gz, out, MiB)).rejects.toThrow(/inflates beyond the 1 MiB workspace limit/);
  });

  it("refuses what is not a gzip file", async () => {
    await expect(extractTarball(Buffer.from("<html>not found</html>"), out, MiB)).rejects.toThrow(/not a valid gzip/);
  });
});
