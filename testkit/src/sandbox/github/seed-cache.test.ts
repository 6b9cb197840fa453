import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { seedFromCache } from "./seed-cache";

const root = fs.mkdtempSync(path.join(os.tmpdir(), "seed-cache-test-"));
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));
const dir = (name: string) => fs.mkdtempSync(path.join(root, `${name}-`));

describe("seedFromCache", () => {
  it("seeds once, then fills each new data dir with a copy of that seed", async () => {
    const cacheRoot = dir("cache");
    let seeded = 0;
    const seed = async (d: string) => {
      seeded++;
      fs.mkdirSync(path.join(d, "git", "octocat"), { recursive: true });
      fs.writeFileSync(path.join(d, "git", "octocat", "HEAD"), "ref: refs/heads/main\n");
      fs.writeFileSync(path.join(d, "state.json"), JSON.stringify({ seeded }));
    };
    const a = dir("a");
    const b = dir("b");
    await seedFromCache(a, seed, cacheRoot);
    await seedFromCache(b, seed, cacheRoot);
    expect(seeded).toBe(1);
    for (const d of [a, b]) {
      expect(JSON.parse(fs.readFileSync(path.join(d, "state.json"), "utf8"))).toEqual({ seeded: 1 });
      expect(fs.readFileSync(path.join(d, "git", "octocat", "HEAD"), "utf8")).toBe("ref: refs/heads/main\n");
    }
    // A copy is the data dir's own: writing it leaves the cache and the other copies as they were.
    fs.writeFileSync(path.join(a, "state.json"), "{}");
    expect(JSON.parse(fs.readFileSync(path.join(b, "state.json"), "utf8"))).toEqual({ seeded: 1 });
    const c = dir("c");
    await seedFromCache(c, seed, cacheRoot);
    expect(JSON.parse(fs.readFileSync(path.join(c, "state.json"), "utf8"))).toEqual({ seeded: 1 });
  });

  it("lets concurrent first users race: every one gets a whole seed, none is left half-written", async () => {
    const cacheRoot = dir("race");
    const seed = async (d: string) => {
      await new Promise((r) => setTimeout(r, 20));
      fs.writeFileSync(path.join(d, "state.json"), JSON.stringify({ from: path.basename(d) }));
    };
    const dirs = [dir("r1"), dir("r2"), dir("r3")];
    await Promise.all(dirs.map((d) => seedFromCache(d, seed, cacheRoot)));
    const states = dirs.map((d) => fs.readFileSync(path.join(d, "state.json"), "utf8"));
    expect(new Set(states).size).toBe(1);
    expect(fs.readdirSync(cacheRoot)).toHaveLength(1);
  });

  it("keeps no cache of a seed that failed, and says why", async () => {
    const cacheRoot = dir("failed");
    await expect(seedFromCache(dir("f"), () => Promise.reject(new Error("git is missing")), cacheRoot)).rejects.toThrow(
      "git is missing",
    );
    expect(fs.readdirSync(cacheRoot)).toEqual([]);
  });
});
