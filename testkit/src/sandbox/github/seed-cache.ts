import { spawnSync } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

const HERE = path.dirname(fileURLToPath(import.meta.url));

/**
 * What the seed is made of: the stand-in's sources (the seed data and everything that writes it)
 * and the git that writes its repositories. A change to any of them seeds afresh. Read once per
 * process: the sources do not change while it runs.
 */
let version: string | undefined;
function seedVersion(): string {
  if (version) return version;
  const hash = crypto.createHash("sha256");
  const sources = fs
    .readdirSync(HERE, { recursive: true, encoding: "utf8" })
    .filter((f) => f.endsWith(".ts") && !f.endsWith(".test.ts"))
    .sort();
  for (const f of sources)
    hash
      .update(f)
      .update("\0")
      .update(fs.readFileSync(path.join(HERE, f)))
      .update("\0");
  hash.update(spawnSync("git", ["--version"], { encoding: "utf8" }).stdout ?? "");
  version = hash.digest("hex").slice(0, 16);
  return version;
}

/**
 * Fills the empty `dataDir` with a seeded stand-in. The seed is the same every time (fixed users,
 * repositories, contents and dates, so the same commits), and writing it runs git a few hundred
 * times: it is written once per seed version into a cache under the temp dir, by `seed`, and each
 * data dir starts as a copy. Concurrent first users each seed a private folder; the first to rename
 * theirs into place wins, the others' are dropped.
 */
export async function seedFromCache(
  dataDir: string,
  seed: (dir: string) => Promise<void>,
  cacheRoot = path.join(os.tmpdir(), "fixloop-github-seed"),
): Promise<void> {
  const cached = path.join(cacheRoot, seedVersion());
  if (!fs.existsSync(path.join(cached, "state.json"))) {
    fs.mkdirSync(cacheRoot, { recursive: true });
    const fresh = fs.mkdtempSync(`${cached}.seeding-`);
    try {
      await seed(fresh);
      fs.renameSync(fresh, cached);
    } catch (err) {
      fs.rmSync(fresh, { recursive: true, force: true });
      // Another process put the same seed in place first: use theirs.
      if (!fs.existsSync(path.join(cached, "state.json"))) throw err;
    }
  }
  fs.cpSync(cached, dataDir, { recursive: true });
}
