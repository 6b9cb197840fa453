import fs from "node:fs";
import path from "node:path";
import zlib from "node:zlib";
import { defineConfig, type Plugin } from "vite";
import react from "@vitejs/plugin-react";
import tailwindcss from "@tailwindcss/vite";
import { tanstackRouter } from "@tanstack/router-plugin/vite";
import { precompress } from "./vite.compress";
import { routeManifest } from "./vite.routes";

/** Prints the gzip size of the JavaScript a first visit to `/` downloads: the entry and its static imports. */
function initialJsReport(): Plugin {
  return {
    name: "fixloop-initial-js",
    apply: "build",
    writeBundle(options, bundle) {
      const chunks = new Map<string, string>();
      for (const out of Object.values(bundle)) if (out.type === "chunk") chunks.set(out.fileName, out.code);
      const seen = new Set<string>();
      const visit = (name: string) => {
        const out = bundle[name];
        if (seen.has(name) || !out || out.type !== "chunk") return;
        seen.add(name);
        out.imports.forEach(visit);
      };
      Object.values(bundle).forEach((o) => o.type === "chunk" && o.isEntry && visit(o.fileName));
      const gzipBytes = [...seen].reduce((n, f) => n + zlib.gzipSync(chunks.get(f) ?? "").length, 0);
      const dir = options.dir ?? "dist";
      fs.writeFileSync(path.join(dir, "initial-js.json"), JSON.stringify({ files: [...seen], gzipBytes }, null, 2));
      console.log(
        `\ninitial JS for / : ${(gzipBytes / 1024).toFixed(1)} KB gzip in ${seen.size} files (budget 170 KB)`,
      );
    },
  };
}

export default defineConfig({
  root: import.meta.dirname,
  plugins: [
    tanstackRouter({ target: "react", autoCodeSplitting: true }),
    react(),
    tailwindcss(),
    initialJsReport(),
    routeManifest(path.join(import.meta.dirname, "src", "routeTree.gen.ts")),
    precompress(),
  ],
  server: {
    proxy: { "/api": { target: "http://localhost:3000", changeOrigin: false } },
  },
  build: { outDir: "dist", emptyOutDir: true, sourcemap: false },
});
