// Compiles the processes the image runs, each to one ES module with the workspace's own code and
// the npm packages left to node_modules. They run on plain node (no TypeScript loader at run time).
// Usage: node infra/docker/bundle.mjs [role[=out-file] ...]
//   roles: worker (worker/dist/main.mjs), api (api/dist/main.mjs), migrate (infra/dist/migrate.mjs);
//   no argument builds all three at those paths.
import path from "node:path";
import url from "node:url";
import * as esbuild from "esbuild";

const root = path.resolve(path.dirname(url.fileURLToPath(import.meta.url)), "../..");

/**
 * Each role's entry, default output, and the source file `import.meta.url` stands for: modules
 * that find files beside their source see the source tree, which the image keeps.
 */
const ROLES = {
  // The localize thread's entry and the tree-sitter grammars (through createRequire).
  worker: { entry: "worker/src/main.ts", out: "worker/dist/main.mjs", metaUrl: "worker/src/localize/index.ts" },
  // The web app's build (web/dist), found from api/src/app.ts.
  api: { entry: "api/src/main.ts", out: "api/dist/main.mjs", metaUrl: "api/src/app.ts" },
  // The embedded-services helpers resolve the repository root two folders up, as from infra/src.
  migrate: { entry: "infra/src/migrate.ts", out: "infra/dist/migrate.mjs", metaUrl: "infra/src/migrate.ts" },
};

/** npm packages stay imports; the workspace's own packages (`@fixloop/*`) and relative files are bundled. */
const npmExternal = {
  name: "npm-external",
  setup(build) {
    build.onResolve({ filter: /^[^./]/ }, (args) =>
      args.path.startsWith("@fixloop/") ? undefined : { path: args.path, external: true },
    );
  },
};

const requested = process.argv.slice(2);
const jobs = (requested.length ? requested : Object.keys(ROLES)).map((arg) => {
  const [role, out] = arg.split("=", 2);
  const spec = ROLES[role];
  if (!spec) {
    console.error(`unknown role ${role}: one of ${Object.keys(ROLES).join(", ")}`);
    process.exit(2);
  }
  return { ...spec, out: path.resolve(out ?? path.join(root, spec.out)) };
});

await Promise.all(
  jobs.map((job) =>
    esbuild.build({
      entryPoints: [path.join(root, job.entry)],
      outfile: job.out,
      bundle: true,
      platform: "node",
      format: "esm",
      target: "node20",
      sourcemap: true,
      plugins: [npmExternal],
      define: { "import.meta.url": JSON.stringify(url.pathToFileURL(path.join(root, job.metaUrl)).href) },
      logLevel: "warning",
    }),
  ),
);
