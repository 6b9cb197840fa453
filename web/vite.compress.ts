import fs from "node:fs";
import path from "node:path";
import zlib from "node:zlib";
import type { Plugin } from "vite";

const COMPRESSIBLE = /\.(js|mjs|css|html|svg|json|txt|map|webmanifest)$/;
/** Below this a compressed copy saves less than its own headers cost. */
const MIN_BYTES = 1024;

/** Writes `.br` and `.gz` beside every compressible file under `dir` (recursively); returns the files compressed. */
export function precompressDir(dir: string): string[] {
  const done: string[] = [];
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const file = path.join(dir, e.name);
    if (e.isDirectory()) {
      done.push(...precompressDir(file));
      continue;
    }
    if (!COMPRESSIBLE.test(e.name)) continue;
    const raw = fs.readFileSync(file);
    if (raw.length < MIN_BYTES) continue;
    const br = zlib.brotliCompressSync(raw, {
      params: {
        [zlib.constants.BROTLI_PARAM_QUALITY]: zlib.constants.BROTLI_MAX_QUALITY,
        [zlib.constants.BROTLI_PARAM_SIZE_HINT]: raw.length,
      },
    });
    const gz = zlib.gzipSync(raw, { level: zlib.constants.Z_BEST_COMPRESSION });
    if (br.length < raw.length) fs.writeFileSync(`${file}.br`, br);
    if (gz.length < raw.length) fs.writeFileSync(`${file}.gz`, gz);
    done.push(file);
  }
  return done;
}

/** Precompresses the build output once, so the server sends brotli or gzip without compressing per request. */
export function precompress(): Plugin {
  return {
    name: "fixloop-precompress",
    apply: "build",
    writeBundle(options) {
      const files = precompressDir(options.dir ?? "dist");
      console.log(`precompressed ${files.length} files (.br, .gz)`);
    },
  };
}
