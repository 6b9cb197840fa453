import fs from "node:fs";
import http from "node:http";
import path from "node:path";
import {
  baseTree,
  bwrapAvailable,
  bwrapRunner,
  checkout,
  handToSandbox,
  HOST_ENV,
  parseAllowedHosts,
  runProcessGroup,
  type SandboxLimits,
} from "@fixloop/worker/tests-run";
import type { Figure } from "./report";
import type { BenchContext, Section } from "./section.types";

const PACKAGES = 200;
const PACKAGE_BYTES = 16 * 1024;
const limits: SandboxLimits = {
  timeoutMs: 120_000,
  memoryBytes: 4 * 1024 ** 3,
  processes: 256,
  fileBytes: 512 * 1024 ** 2,
  outputBytes: 256 * 1024,
};

/**
 * An install stand-in: fetches PACKAGES files from the registry (8 at a time) into node_modules,
 * through HTTP_PROXY when it is set (the sandbox's egress bridge), straight otherwise (bare).
 */
const INSTALL = `const http = require("node:http"); const fs = require("node:fs");
const [host, port] = process.argv.slice(2); const proxy = process.env.HTTP_PROXY ? new URL(process.env.HTTP_PROXY) : null;
fs.mkdirSync("node_modules", { recursive: true }); let next = 0;
const get = (i) => new Promise((ok, ko) => {
  const url = "http://" + host + ":" + port + "/pkg/" + i;
  const o = proxy ? { host: proxy.hostname, port: proxy.port, path: url } : { host, port, path: "/pkg/" + i };
  http.get(o, (r) => { const out = []; r.on("data", (c) => out.push(c)); r.on("end", () => { fs.writeFileSync("node_modules/p" + i + ".js", Buffer.concat(out)); ok(); }); }).on("error", ko);
});
const worker = async () => { while (next < ${PACKAGES}) await get(next++); };
Promise.all(Array.from({ length: 8 }, worker)).then(() => console.log("installed"), (e) => { console.error(e); process.exit(1); });
`;

function generate(dir: string): void {
  fs.rmSync(dir, { recursive: true, force: true });
  fs.mkdirSync(path.join(dir, "test"), { recursive: true });
  fs.writeFileSync(path.join(dir, "install.cjs"), INSTALL);
  fs.writeFileSync(
    path.join(dir, "test", "installed.test.js"),
    `const { test } = require("node:test");\nconst fs = require("node:fs");\ntest("installed", () => { if (fs.readdirSync("node_modules").length !== ${PACKAGES}) throw new Error("missing"); });\n`,
  );
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;
const time = async (fn: () => Promise<unknown>) => {
  const t = performance.now();
  await fn();
  return performance.now() - t;
};

/** The networked setup path (own namespace, egress proxy, bridge) against the same install run bare; set-up base reuse. */
export const sandboxNetworkSection: Section = {
  name: "sandbox-network",
  async run(ctx: BenchContext): Promise<Figure[]> {
    if (!bwrapAvailable()) {
      process.stderr.write("  bwrap not found: sandbox-network section skipped\n");
      return [];
    }
    const body = Buffer.alloc(PACKAGE_BYTES, "x");
    const registry = http.createServer((_req, res) => res.end(body));
    await new Promise<void>((r) => registry.listen(0, "127.0.0.1", r));
    const port = (registry.address() as { port: number }).port;
    const source = path.join(ctx.dir, "sandbox-network-repo");
    generate(source);
    const cache = { root: path.join(ctx.dir, "sandbox-network-workspaces"), maxBytes: 2 * 1024 ** 3 };
    fs.rmSync(cache.root, { recursive: true, force: true });
    const base = await baseTree(cache, "bench", "net", "0".repeat(39) + "2", (d) =>
      fs.promises.cp(source, d, { recursive: true }),
    );
    const runner = bwrapRunner({ egress: parseAllowedHosts([`127.0.0.1:${port}`]) });
    const setup = `node install.cjs 127.0.0.1 ${port}`;
    const must = <R extends { exitCode: number | null; output: string }>(r: R): R => {
      if (r.exitCode !== 0) throw new Error(`sandboxed run failed: ${r.output.slice(-500)}`);
      return r;
    };
    const bare: number[] = [];
    const boxed: number[] = [];
    const rerun: number[] = [];
    const reuse: number[] = [];
    try {
      for (let i = 0; i < 3; i++) {
        // Same install, bare on the host and through the sandbox's egress path.
        const b = await checkout(cache, base.dir);
        bare.push(
          must(await runProcessGroup(["sh", "-c", setup], { limits }, { ...HOST_ENV, HOME: "/tmp" }, { cwd: b.dir }))
            .durationMs,
        );
        await b.dispose();
        const w = await checkout(cache, base.dir);
        await handToSandbox(w.dir);
        boxed.push(must(await runner.run({ workspace: w.dir, command: setup, network: true, limits })).durationMs);
        // Patched phase, the old way: copy the base tree, set it up again (network), run the tests.
        rerun.push(
          await time(async () => {
            const p = await checkout(cache, base.dir);
            await handToSandbox(p.dir);
            must(await runner.run({ workspace: p.dir, command: setup, network: true, limits }));
            must(await runner.run({ workspace: p.dir, command: "node --test", network: false, limits }));
            await p.dispose();
          }),
        );
        // Now: copy the set-up base (w), run the tests offline.
        reuse.push(
          await time(async () => {
            const p = await checkout(cache, w.dir);
            await handToSandbox(p.dir);
            must(await runner.run({ workspace: p.dir, command: "node --test", network: false, limits }));
            await p.dispose();
          }),
        );
        await w.dispose();
      }
    } finally {
      registry.close();
      fs.rmSync(cache.root, { recursive: true, force: true });
    }
    const s = `sandbox network (setup fetching ${PACKAGES} x ${PACKAGE_BYTES / 1024} KiB, medians of 3)`;
    return [
      {
        section: s,
        name: "networked setup (namespace + egress proxy)",
        value: median(boxed) / 1000,
        unit: "s",
        baseline: median(bare) / 1000,
        baselineName: "same setup bare",
      },
      {
        section: s,
        name: "patched phase, set-up base reused",
        value: median(reuse) / 1000,
        unit: "s",
        baseline: median(rerun) / 1000,
        baselineName: "setup re-run with network",
      },
      {
        section: s,
        name: "time saved per patched phase",
        value: (median(rerun) - median(reuse)) / 1000,
        unit: "s",
      },
    ];
  },
};
