import fs from "node:fs";
import path from "node:path";
import {
  baseTree,
  bwrapAvailable,
  bwrapRunner,
  checkout,
  handToSandbox,
  HOST_ENV,
  runProcessGroup,
  type SandboxLimits,
} from "@fixloop/worker/tests-run";
import type { Figure } from "./report";
import type { BenchContext, Section } from "./section.types";

const FILES = 10_000;
const limits: SandboxLimits = {
  timeoutMs: 120_000,
  memoryBytes: 4 * 1024 ** 3,
  processes: 256,
  fileBytes: 512 * 1024 ** 2,
  outputBytes: 256 * 1024,
};

/** A repository of 10k small modules and a node --test suite over a few of them. */
function generate(dir: string): void {
  fs.rmSync(dir, { recursive: true, force: true });
  for (let i = 0; i < FILES; i++) {
    const file = path.join(dir, "src", `m${Math.floor(i / 100)}`, `f${i}.js`);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(
      file,
      `export const value${i} = ${i};\nexport function twice${i}(x) {\n  return x * 2 + ${i % 7};\n}\n`,
    );
  }
  const tests = Array.from(
    { length: 40 },
    (_, i) =>
      `test("module ${i}", async () => {\n  const m = await import("../src/m${i}/f${i * 100}.js");\n  assert.equal(m.value${i * 100}, ${i * 100});\n});`,
  ).join("\n");
  fs.mkdirSync(path.join(dir, "test"), { recursive: true });
  fs.writeFileSync(
    path.join(dir, "test", "modules.test.js"),
    `import assert from "node:assert/strict";\nimport { test } from "node:test";\n${tests}\n`,
  );
  fs.writeFileSync(
    path.join(dir, "package.json"),
    JSON.stringify({ name: "bench-repo", type: "module", scripts: { test: "node --test" } }),
  );
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;
const time = async (fn: () => Promise<unknown>) => {
  const t = performance.now();
  await fn();
  return performance.now() - t;
};

export const sandboxSection: Section = {
  name: "sandbox",
  async run(ctx: BenchContext): Promise<Figure[]> {
    if (!bwrapAvailable()) {
      process.stderr.write("  bwrap not found: sandbox section skipped\n");
      return [];
    }
    const source = path.join(ctx.dir, "sandbox-repo");
    generate(source);
    const cache = { root: path.join(ctx.dir, "sandbox-workspaces"), maxBytes: 2 * 1024 ** 3 };
    fs.rmSync(cache.root, { recursive: true, force: true });
    const commit = "0".repeat(39) + "1";
    const build = (dir: string) => fs.promises.cp(source, dir, { recursive: true });
    // Cold: the base tree is built (here from a local copy, not the GitHub API) and a run copy made; cached: only the run copy.
    let ws = { dir: "", dispose: async () => {} };
    const cold = await time(async () => {
      const base = await baseTree(cache, "bench", "repo", commit, build);
      ws = await checkout(cache, base.dir);
    });
    await ws.dispose();
    const cachedRuns: number[] = [];
    for (let i = 0; i < 3; i++) {
      cachedRuns.push(
        await time(async () => {
          const base = await baseTree(cache, "bench", "repo", commit, build);
          ws = await checkout(cache, base.dir);
        }),
      );
      if (i < 2) await ws.dispose();
    }
    await handToSandbox(ws.dir);
    const runner = bwrapRunner();
    const bare: number[] = [];
    const boxed: number[] = [];
    for (let i = 0; i < 3; i++) {
      bare.push(
        (await runProcessGroup(["sh", "-c", "node --test"], { limits }, { ...HOST_ENV, HOME: "/tmp" }, { cwd: ws.dir }))
          .durationMs,
      );
      const r = await runner.run({ workspace: ws.dir, command: "node --test", network: false, limits });
      if (r.exitCode !== 0) throw new Error(`sandboxed run failed: ${r.output.slice(-500)}`);
      boxed.push(r.durationMs);
    }
    await ws.dispose();
    fs.rmSync(cache.root, { recursive: true, force: true });
    const s = "sandbox (10k-file repository, node --test, medians of 3)";
    return [
      {
        section: s,
        name: "sandboxed test run",
        value: median(boxed) / 1000,
        unit: "s",
        baseline: median(bare) / 1000,
        baselineName: "same command bare",
      },
      {
        section: s,
        name: "sandbox overhead ratio",
        value: median(boxed) / Math.max(1, median(bare)),
        unit: "x",
        target: "< 1.5x",
        holds: median(boxed) / Math.max(1, median(bare)) < 1.5,
      },
      {
        section: s,
        name: "workspace, cached base",
        value: median(cachedRuns) / 1000,
        unit: "s",
        baseline: cold / 1000,
        baselineName: "cold (base tree built)",
      },
    ];
  },
};
