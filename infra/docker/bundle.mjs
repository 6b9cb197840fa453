// Compiles the worker for the image: one ES module with the workspace's own code, the npm
// packages left to node_modules. Runs on plain node (no TypeScript loader at run time).
// Usage: node infra/docker/bundle.mjs <out-file>
import path from "node:path";
import url from "node:url";
import * as esbuild from "esbuild";

const root = path.resolve(path.dirname(url.fileURLToPath(import.meta.url)), "../..");
const out = path.resolve(process.argv[2] ?? path.join(root, "worker/dist/main.mjs"));

/** npm packages stay imports; the workspace's own packages (`@fixloop/*`) and relative files are bundled. */
const npmExternal = {
  name: "npm-external",
  setup(build) {
    build.onResolve({ filter: /^[^./]/ }, (args) =>
      args.path.startsWith("@fixloop/") ? undefined : { path: args.path, external: true },
    );
  },
};

await esbuild.build({
  entryPoints: [path.join(root, "worker/src/main.ts")],
  outfile: out,
  bundle: true,
  platform: "node",
  format: "esm",
  target: "node20",
  sourcemap: true,
  plugins: [npmExternal],
  // Modules that find files beside their source (the localize thread's entry, the tree-sitter
  // grammars through createRequire) see the source tree's localize folder, which the image keeps.
  define: {
    "import.meta.url": JSON.stringify(url.pathToFileURL(path.join(root, "worker/src/localize/index.ts")).href),
  },
  logLevel: "warning",
});
