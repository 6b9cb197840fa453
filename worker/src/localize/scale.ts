/**
 * Scale check: generates a synthetic tree (default 50,000 files in several languages with
 * imports) and times a cold and a warm localization with a shared cache.
 *   tsx worker/src/localize/scale.ts [--files 50000] [--dir /tmp/loc-scale]
 */
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { LocalizeCache } from "./cache";
import { filesFromDirectory } from "./files";
import { localize } from "./localize";

const WORDS = (
  "alpha beta gamma delta order invoice user account parse render cache store queue worker " +
  "token graph node edge session config client server request response handler model view field"
).split(" ");

/** Deterministic pseudo-random generator (mulberry32). */
function rng(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Writes `count` source files under `dir` (skipped when `dir/.complete` exists). */
export function generateTree(dir: string, count: number): void {
  if (existsSync(join(dir, ".complete"))) return;
  const rand = rng(1);
  const pick = (): string => WORDS[Math.floor(rand() * WORDS.length)] ?? "x";
  const exts = [".py", ".ts", ".go", ".java", ".rb", ".js"];
  for (let i = 0; i < count; i++) {
    const sub = `pkg${i % 50}/mod${Math.floor(i / 50) % 40}`;
    mkdirSync(join(dir, sub), { recursive: true });
    const ext = exts[Math.floor(rand() * exts.length)] ?? ".py";
    const lines: string[] = [];
    const n = 3 + Math.floor(rand() * 22);
    if (ext === ".py") {
      lines.push(`from pkg${Math.floor(rand() * 50)}.mod${Math.floor(rand() * 40)} import thing`);
      for (let k = 0; k < n; k++)
        lines.push(`def ${pick()}_${pick()}_${k}(x):\n    return x + ${k}  # ${pick()} ${pick()} ${pick()}`);
    } else {
      lines.push(`import { thing } from "../mod${Math.floor(rand() * 40)}/index";`);
      for (let k = 0; k < n; k++)
        lines.push(`function ${pick()}${pick()}${k}(x) { return x + ${k}; } // ${pick()} ${pick()}`);
    }
    writeFileSync(join(dir, sub, `${pick()}_${i}${ext}`), `${lines.join("\n")}\n`);
  }
  writeFileSync(join(dir, ".complete"), "");
}

export interface ScaleResult {
  files: number;
  coldSeconds: number;
  warmSeconds: number;
  peakRssMiB: number;
}

export async function runScaleCheck(dir: string, count = 50_000): Promise<ScaleResult> {
  generateTree(dir, count);
  const cache = new LocalizeCache();
  const issue = {
    issueTitle: "Invoice parse crashes in render_cache",
    issueBody: "Calling `parse_invoice` from the worker queue loses the session token. See pkg3/mod4.",
  };
  const once = async (): Promise<{ seconds: number; files: number }> => {
    const started = performance.now();
    const files = await filesFromDirectory(dir);
    await localize({ files, ...issue, cache });
    return { seconds: (performance.now() - started) / 1000, files: files.length };
  };
  const cold = await once();
  const warm = await once();
  return {
    files: cold.files,
    coldSeconds: cold.seconds,
    warmSeconds: warm.seconds,
    peakRssMiB: Math.round(process.resourceUsage().maxRSS / 1024),
  };
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const { values } = parseArgs({
    options: { files: { type: "string", default: "50000" }, dir: { type: "string", default: "/tmp/loc-scale" } },
  });
  const count = Number(values.files);
  const result = await runScaleCheck(`${values.dir}-${count}`, count);
  process.stdout.write(`${JSON.stringify(result)}\n`);
}
