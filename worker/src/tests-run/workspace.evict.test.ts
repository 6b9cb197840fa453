import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { baseTree, checkout, KEEP_USED_WITHIN_MS, type WorkspaceCache } from "./workspace";

const roots: string[] = [];
afterAll(async () => {
  for (const r of roots) await fs.rm(r, { recursive: true, force: true });
});

/** A cache that holds about one tree of `files` × 10 KiB. */
async function smallCache(): Promise<WorkspaceCache> {
  const root = await fs.mkdtemp(path.join(os.tmpdir(), "fixloop-evict-"));
  roots.push(root);
  await fs.mkdir(path.join(root, "tmp"), { recursive: true });
  return { root, maxBytes: 150 * 1024 };
}

const build = (files: number) => async (dir: string) => {
  for (let i = 0; i < files; i++) await fs.writeFile(path.join(dir, `f${i}.txt`), "x".repeat(10 * 1024));
};
const countIn = async (dir: string) => (await fs.readdir(dir)).length;
const sha = (n: number) => String(n).repeat(40).slice(0, 40);

describe("the base-tree cache's eviction", () => {
  it("keeps a tree a job is using (copying it, or holding it between steps) when another job's build overflows the cache", async () => {
    const cache = await smallCache();
    const a = await baseTree(cache, "o", "a", sha(1), build(10));
    // Another job builds a tree that takes the cache past its budget while the first still needs its tree.
    await baseTree(cache, "o", "b", sha(2), build(10));
    expect(await countIn(a.dir)).toBe(10);
    const copy = await checkout(cache, a.dir);
    expect(await countIn(copy.dir)).toBe(10);
    await copy.dispose();
  });

  it("evicts the least recently used trees once they have gone unused for a while, renamed out of the way first", async () => {
    const cache = await smallCache();
    const old = await baseTree(cache, "o", "old", sha(3), build(10));
    const idle = new Date(Date.now() - KEEP_USED_WITHIN_MS - 60_000);
    await fs.utimes(old.dir, idle, idle);
    const fresh = await baseTree(cache, "o", "new", sha(4), build(10));
    await expect(fs.stat(old.dir)).rejects.toMatchObject({ code: "ENOENT" });
    expect(await countIn(fresh.dir)).toBe(10);
    // Nothing half-removed is left behind, in base/ or tmp/.
    expect(await fs.readdir(path.join(cache.root, "base"))).toEqual([path.basename(fresh.dir)]);
    expect(await fs.readdir(path.join(cache.root, "tmp"))).toEqual([]);
  });
});
