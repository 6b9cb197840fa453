import { execFileSync } from "node:child_process";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { detectTestPlan, MAX_FIXLOOP_YML_BYTES } from "./detect";
import { writeInside } from "./workspace";

// Hostile: a repository's files, or what its networked setup left in the tree, are read and
// written by the worker itself, outside the sandbox. None of it may hang, exhaust or mislead it.

const roots: string[] = [];
afterAll(async () => {
  for (const r of roots) await fs.rm(r, { recursive: true, force: true });
});

async function tree(files: Record<string, string> = {}): Promise<string> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), "fixloop-repo-walls-"));
  roots.push(dir);
  for (const [rel, text] of Object.entries(files)) {
    await fs.mkdir(path.dirname(path.join(dir, rel)), { recursive: true });
    await fs.writeFile(path.join(dir, rel), text);
  }
  return dir;
}

const fifo = (p: string) => execFileSync("mkfifo", [p]);

/** Settles within `ms`, or says it hung (a FIFO read or write never returns by itself). */
const within = <T>(p: Promise<T>, ms = 5_000) =>
  Promise.race([p, new Promise<"hung">((resolve) => setTimeout(() => resolve("hung"), ms).unref())]);

describe(".fixloop.yml and the files the test command is detected from", () => {
  it("refuses a .fixloop.yml over the size limit without parsing it (a 20 MB flow list ran the worker out of memory)", async () => {
    const huge = `test: npm test\nlist: [${"1,".repeat(10_000_000)}1]\n`;
    const dir = await tree({ ".fixloop.yml": huge, "package.json": '{"scripts":{"test":"vitest"}}' });
    const started = performance.now();
    const plan = await detectTestPlan(dir, null, true);
    expect(performance.now() - started).toBeLessThan(2_000);
    expect(plan).toEqual({
      reason: `Invalid .fixloop.yml: 20,000,025 bytes, over the ${MAX_FIXLOOP_YML_BYTES.toLocaleString("en-US")} it may have`,
    });
    // At the limit it is read as before.
    const atLimit = `test: npm test\n#${"x".repeat(MAX_FIXLOOP_YML_BYTES - 17)}\n`;
    expect(Buffer.byteLength(atLimit)).toBe(MAX_FIXLOOP_YML_BYTES);
    expect(await detectTestPlan(await tree({ ".fixloop.yml": atLimit }), null, true)).toMatchObject({
      command: "npm test",
      source: ".fixloop.yml",
    });
  });

  it("does not block on a FIFO, nor follow a link out of the tree", async () => {
    const dir = await tree({ "package.json": '{"scripts":{"test":"vitest run"}}' });
    fifo(path.join(dir, ".fixloop.yml"));
    expect(await within(detectTestPlan(dir, null, true))).toMatchObject({ command: "npm test", source: "detected" });

    const outside = await tree({ "secret.yml": "test: cat /etc/shadow\n" });
    const linked = await tree({ "package.json": '{"scripts":{"test":"vitest run"}}' });
    await fs.symlink(path.join(outside, "secret.yml"), path.join(linked, ".fixloop.yml"));
    expect(await detectTestPlan(linked, null, true)).toMatchObject({ command: "npm test", source: "detected" });
    const fifoPackage = await tree();
    fifo(path.join(fifoPackage, "package.json"));
    expect(await within(detectTestPlan(fifoPackage, null, true))).toEqual({
      reason: "No test command found; add .fixloop.yml",
    });
  });
});

describe("writing the patch into a tree setup has shaped", () => {
  it("refuses a FIFO, a directory or a link where a patched file goes, at once, and writes a regular file", async () => {
    const dir = await tree({ "src/ok.py": "old\n", "src/dir/keep.txt": "x" });
    fifo(path.join(dir, "src/x.py"));
    expect(await within(writeInside(dir, "src/x.py", "patched\n").catch((e: Error) => e.message))).toBe(
      "Refusing to write over something that is not a regular file: src/x.py",
    );
    await expect(writeInside(dir, "src/dir", "patched\n")).rejects.toThrow(/not a regular file/);
    await fs.symlink("/etc/hostname", path.join(dir, "src/link.py"));
    await expect(writeInside(dir, "src/link.py", "patched\n")).rejects.toThrow(/through a symlink/);
    await expect(writeInside(dir, "../escape.py", "x")).rejects.toThrow(/outside the workspace/);

    await writeInside(dir, "src/ok.py", "patched\n");
    await writeInside(dir, "src/new/made.py", "new\n");
    expect(await fs.readFile(path.join(dir, "src/ok.py"), "utf8")).toBe("patched\n");
    expect(await fs.readFile(path.join(dir, "src/new/made.py"), "utf8")).toBe("new\n");
    expect((await fs.lstat(path.join(dir, "src/x.py"))).isFIFO()).toBe(true);
  });
});
