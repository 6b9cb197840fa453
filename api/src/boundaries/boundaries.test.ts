import path from "node:path";
import url from "node:url";
import { build, type Metafile } from "esbuild";
import { describe, expect, test } from "vitest";

const ROOT = path.resolve(path.dirname(url.fileURLToPath(import.meta.url)), "../../..");

/** Every module the API process loads from start, as esbuild resolves it; npm packages stay unresolved. */
async function apiModuleGraph(): Promise<{ ours: string[]; packages: string[] }> {
  const result = await build({
    entryPoints: [path.join(ROOT, "api/src/main.ts")],
    bundle: true,
    write: false,
    platform: "node",
    format: "esm",
    metafile: true,
    logLevel: "silent",
    plugins: [
      {
        name: "npm-packages-external",
        setup(b) {
          b.onResolve({ filter: /^[^./]/ }, (args) =>
            args.path.startsWith("@fixloop/") ? undefined : { path: args.path, external: true },
          );
        },
      },
    ],
  });
  const meta: Metafile = result.metafile;
  const ours = Object.keys(meta.inputs).map((p) => path.relative(ROOT, path.resolve(process.cwd(), p)));
  const packages = Object.values(meta.inputs).flatMap((i) => i.imports.filter((x) => x.external).map((x) => x.path));
  return { ours, packages: [...new Set(packages)] };
}

describe("the API process", () => {
  test("loads of the worker only its contract, and nothing of infra or the web app", async () => {
    const { ours } = await apiModuleGraph();
    expect(ours.length).toBeGreaterThan(20);
    const outside = ours.filter(
      (p) => !p.startsWith("api/src/") && !p.startsWith("db/src/") && !p.startsWith("worker/src/contract/"),
    );
    expect(outside).toEqual([]);
  });

  test("loads neither tree-sitter nor a model SDK", async () => {
    const { packages } = await apiModuleGraph();
    const heavy = packages.filter((p) => /tree-sitter|^openai|^groq-sdk|^@anthropic-ai\//.test(p));
    expect(heavy).toEqual([]);
  });
});
