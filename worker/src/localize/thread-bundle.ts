import { createHash } from "node:crypto";
import { mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

/** The thread entry (typed source, bundled with what it imports into one CommonJS script). */
const ENTRY = fileURLToPath(new URL("./threads.worker.ts", import.meta.url));
const require = createRequire(import.meta.url);
/** Beside the other tools' caches (node_modules/.cache), not in a folder other users can write. */
const CACHE = join(dirname(require.resolve("esbuild/package.json")), "..", ".cache", "fixloop-localize-thread");

interface Cached {
  /** The bundle's source files (absolute) and the hash of their contents. */
  inputs: string[];
  hash: string;
  code: string;
}

const hashOf = (files: readonly string[]): string => {
  const h = createHash("sha1");
  for (const f of files) h.update(f).update("\0").update(readFileSync(f)).update("\0");
  return h.digest("hex");
};

let code: string | undefined;

/**
 * The localize thread's script: threads.worker.ts and its imports bundled by esbuild (once per
 * change of those files; the bundle is kept in node_modules/.cache), so a thread starts on
 * plain JavaScript without a TypeScript loader of its own.
 */
export function threadScript(): string {
  if (code !== undefined) return code;
  const file = join(CACHE, `${createHash("sha1").update(ENTRY).digest("hex").slice(0, 12)}.json`);
  try {
    const cached = JSON.parse(readFileSync(file, "utf8")) as Cached;
    if (hashOf(cached.inputs) === cached.hash) return (code = cached.code);
  } catch {
    // No bundle yet, or one of its sources is gone: bundle again.
  }
  const esbuild = require("esbuild") as typeof import("esbuild");
  const out = esbuild.buildSync({
    entryPoints: [ENTRY],
    bundle: true,
    write: false,
    metafile: true,
    format: "cjs",
    platform: "node",
    target: "node20",
    external: ["web-tree-sitter"],
    logLevel: "silent",
  });
  const root = process.cwd();
  const inputs = Object.keys(out.metafile.inputs).map((p) => resolve(root, p));
  code = out.outputFiles[0]?.text ?? "";
  try {
    mkdirSync(dirname(file), { recursive: true });
    const tmp = `${file}.${process.pid}`;
    writeFileSync(tmp, JSON.stringify({ inputs, hash: hashOf(inputs), code } satisfies Cached));
    renameSync(tmp, file);
  } catch {
    // A read-only cache folder: bundle again next time.
  }
  return code;
}
