// @ts-check
/**
 * `npm run localize`: starts the localize CLI (worker/src/localize/cli.ts) on plain node. The CLI
 * and what it imports are bundled by esbuild into node_modules/.cache on the first run and again
 * whenever one of their sources changes (their contents are hashed on every start, a millisecond),
 * which spares each run the TypeScript loader's start-up and its second process (about a second).
 * Without esbuild, or where the cache cannot be written, the CLI runs through tsx as before.
 */
import { createHash } from "node:crypto";
import { mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const ENTRY = fileURLToPath(new URL("../src/localize/cli.ts", import.meta.url));
const require = createRequire(import.meta.url);
/** Beside the other tools' caches; outside node_modules the bundle could not import web-tree-sitter. */
const CACHE = join(dirname(require.resolve("esbuild/package.json")), "..", ".cache", "fixloop-localize-cli");
const BUNDLE = join(CACHE, `${createHash("sha1").update(ENTRY).digest("hex").slice(0, 12)}.mjs`);
const META = `${BUNDLE}.json`;

/** @param {readonly string[]} files @param {(file: string) => Buffer} read */
const hashOf = (files, read = (f) => readFileSync(f)) => {
  const h = createHash("sha1");
  for (const f of files) h.update(f).update("\0").update(read(f)).update("\0");
  return h.digest("hex");
};

/** Whether the cached bundle was built from the sources as they are now. */
function fresh() {
  try {
    const meta = /** @type {{ inputs: string[]; hash: string }} */ (JSON.parse(readFileSync(META, "utf8")));
    return hashOf(meta.inputs) === meta.hash;
  } catch {
    return false;
  }
}

/**
 * Loads each source with its own `import.meta.url` (a bundle would otherwise give every module the
 * bundle's, and the paths they resolve next to themselves, the thread script and the grammars, would
 * be wrong), and hashes what it loaded, so the bundle's hash is that of exactly what it was built from.
 * @param {Map<string, Buffer>} loaded
 * @returns {import("esbuild").Plugin}
 */
const sources = (loaded) => ({
  name: "fixloop-sources",
  setup(build) {
    build.onLoad({ filter: /\.ts$/ }, (args) => {
      const bytes = readFileSync(args.path);
      loaded.set(args.path, bytes);
      const url = JSON.stringify(pathToFileURL(args.path).href);
      return { contents: bytes.toString("utf8").replaceAll("import.meta.url", url), loader: "ts" };
    });
  },
});

async function bundle() {
  const esbuild = /** @type {typeof import("esbuild")} */ (require("esbuild"));
  /** @type {Map<string, Buffer>} */
  const loaded = new Map();
  const out = await esbuild.build({
    entryPoints: [ENTRY],
    bundle: true,
    write: false,
    format: "esm",
    platform: "node",
    target: "node20",
    packages: "external",
    plugins: [sources(loaded)],
    logLevel: "silent",
  });
  const inputs = [...loaded.keys()].sort();
  mkdirSync(CACHE, { recursive: true });
  const tmp = `.${process.pid}.tmp`;
  writeFileSync(BUNDLE + tmp, out.outputFiles[0]?.text ?? "");
  renameSync(BUNDLE + tmp, BUNDLE);
  writeFileSync(META + tmp, JSON.stringify({ inputs, hash: hashOf(inputs, (f) => loaded.get(f) ?? Buffer.alloc(0)) }));
  renameSync(META + tmp, META);
}

let ready = fresh();
if (!ready)
  ready = await bundle().then(
    () => true,
    () => false,
  );
if (ready) await import(pathToFileURL(BUNDLE).href);
else {
  const { register } = await import("tsx/esm/api");
  register();
  await import(pathToFileURL(ENTRY).href);
}
