import fs from "node:fs";
import path from "node:path";
import url from "node:url";
import { build, type Metafile } from "esbuild";
import ts from "typescript";
import { describe, expect, test } from "vitest";

const ROOT = path.resolve(path.dirname(url.fileURLToPath(import.meta.url)), "../../..");

/** Every module `entry` loads, as esbuild resolves it; npm packages (and node built-ins) stay unresolved. */
async function moduleGraph(entry: string, platform: "node" | "browser" = "node") {
  const result = await build({
    entryPoints: [path.join(ROOT, entry)],
    bundle: true,
    write: false,
    platform,
    jsx: "automatic",
    loader: { ".css": "empty", ".svg": "empty", ".png": "empty", ".woff2": "empty" },
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

const outside = (ours: string[], allowed: string[]) => ours.filter((p) => !allowed.some((a) => p.startsWith(a)));

describe("the API process", () => {
  test("loads the API, db, the contract and the runtime only: nothing of the worker, infra or the web app", async () => {
    const { ours } = await moduleGraph("api/src/main.ts");
    expect(ours.length).toBeGreaterThan(20);
    expect(ours.some((p) => p.startsWith("contract/src/"))).toBe(true);
    expect(outside(ours, ["api/src/", "db/src/", "contract/src/", "runtime/src/"])).toEqual([]);
  });

  test("loads neither tree-sitter nor a model SDK", async () => {
    const { packages } = await moduleGraph("api/src/main.ts");
    const heavy = packages.filter((p) => /tree-sitter|^openai|^groq-sdk|^@anthropic-ai\//.test(p));
    expect(heavy).toEqual([]);
  });
});

describe("the web app", () => {
  test("loads the contract and nothing else of ours: the API's face gives it types only", async () => {
    const { ours } = await moduleGraph("web/src/main.tsx", "browser");
    expect(ours.some((p) => p.startsWith("contract/src/"))).toBe(true);
    expect(outside(ours, ["web/src/", "contract/src/"])).toEqual([]);
  });
});

describe("the contract", () => {
  test("is a leaf of shapes: it loads nothing of ours and no package but zod (and diff, node:path)", async () => {
    const { ours, packages } = await moduleGraph("contract/src/index.ts");
    expect(outside(ours, ["contract/src/"])).toEqual([]);
    expect(packages.sort()).toEqual(["diff", "node:path", "zod"]);
  });

  test("db loads the contract and nothing else of ours", async () => {
    const { ours } = await moduleGraph("db/src/index.ts");
    expect(ours.some((p) => p.startsWith("contract/src/"))).toBe(true);
    expect(outside(ours, ["db/src/", "contract/src/"])).toEqual([]);
  });

  test("the runtime loads db and the contract, nothing of the API or the worker", async () => {
    const { ours } = await moduleGraph("runtime/src/index.ts");
    expect(outside(ours, ["runtime/src/", "db/src/", "contract/src/"])).toEqual([]);
  });

  test("db and the contract export no name in common (types included), so no name means two things", () => {
    const entries = ["db/src/index.ts", "contract/src/index.ts"].map((e) => path.join(ROOT, e));
    const program = ts.createProgram(entries, {
      module: ts.ModuleKind.Preserve,
      moduleResolution: ts.ModuleResolutionKind.Bundler,
      target: ts.ScriptTarget.ES2022,
      strict: true,
      noEmit: true,
      skipLibCheck: true,
      types: [],
    });
    const checker = program.getTypeChecker();
    const [db, contract] = entries.map((e) => {
      const symbol = checker.getSymbolAtLocation(program.getSourceFile(e)!)!;
      return new Set(checker.getExportsOfModule(symbol).map((s) => s.name));
    });
    expect(contract!.size).toBeGreaterThan(100);
    expect([...db!].filter((n) => contract!.has(n))).toEqual([]);
  });
});

describe("testkit and the top", () => {
  test("testkit (test support, stand-ins, services, child processes) loads db and the contract only", async () => {
    for (const face of ["test/index.ts", "src/sandbox/index.ts", "src/services/index.ts", "src/processes.ts"]) {
      const { ours } = await moduleGraph(`testkit/${face}`);
      expect(outside(ours, ["testkit/", "db/src/", "db/test/", "contract/src/"]), face).toEqual([]);
    }
  });

  test("the bench and the launcher load product faces: no test support but testkit's stand-ins and services", async () => {
    const bench = fs.readdirSync(path.join(ROOT, "infra/src/bench"), { recursive: true, encoding: "utf8" });
    const entries = ["infra/src/start.ts", "infra/src/migrate.ts"].concat(
      bench.filter((f) => f.endsWith(".ts") && !f.endsWith(".test.ts")).map((f) => `infra/src/bench/${f}`),
    );
    expect(entries.length).toBeGreaterThan(20);
    for (const entry of entries) {
      const { ours } = await moduleGraph(entry);
      // test/ folders hold test support (testkit/test, api/test, worker/test); testkit/src holds the stand-ins and services.
      expect(
        ours.filter((p) => /^[a-z]+\/test\//.test(p) || p.endsWith(".test.ts")),
        entry,
      ).toEqual([]);
    }
  });

  test("no two packages depend on each other, dev dependencies included", () => {
    const names = ["contract", "db", "runtime", "api", "worker", "web", "testkit", "infra"];
    const deps = new Map(
      names.map((n) => {
        const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, n, "package.json"), "utf8")) as {
          dependencies?: Record<string, string>;
          devDependencies?: Record<string, string>;
        };
        const all = Object.keys({ ...pkg.dependencies, ...pkg.devDependencies });
        return [n, all.filter((d) => d.startsWith("@fixloop/")).map((d) => d.replace("@fixloop/", ""))];
      }),
    );
    const cycles: string[] = [];
    const walk = (n: string, trail: string[]) => {
      for (const d of deps.get(n) ?? []) {
        if (d === trail[0]) cycles.push([...trail, d].join(" → "));
        else if (!trail.includes(d)) walk(d, [...trail, d]);
      }
    };
    for (const n of names) walk(n, [n]);
    expect(cycles).toEqual([]);
    expect(deps.get("testkit")).toEqual(["contract", "db"]);
  });
});
