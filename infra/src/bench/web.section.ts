import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import zlib from "node:zlib";
import { ROOT } from "../paths";
import type { Figure } from "./report";
import type { Section } from "./section.types";

const DIST = path.join(ROOT, "web", "dist");
const ROUTES = path.join(ROOT, "web", "src", "routes");

const gzip = (file: string) => zlib.gzipSync(fs.readFileSync(path.join(DIST, file)), { level: 9 }).length;
const kb = (bytes: number) => bytes / 1000;

/** A chunk and every chunk it imports statically (the browser fetches them before it runs). */
function closure(start: string[]): Set<string> {
  const seen = new Set<string>();
  const todo = [...start];
  while (todo.length) {
    const file = todo.pop() as string;
    if (seen.has(file) || !fs.existsSync(path.join(DIST, file))) continue;
    seen.add(file);
    const code = fs.readFileSync(path.join(DIST, file), "utf8");
    for (const m of code.matchAll(/(?:from|import)\s*"\.\/([^"]+\.js)"/g))
      todo.push(path.posix.join(path.posix.dirname(file), m[1] as string));
  }
  return seen;
}

/** Route files as Vite names their chunks: basename, `$` dropped to `_`, the root index as `routes`. */
function routeChunks(assets: string[]): Map<string, string> {
  const out = new Map<string, string>();
  const walk = (dir: string) => {
    for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
      if (e.isDirectory()) walk(path.join(dir, e.name));
      else if (e.name.endsWith(".tsx") && !e.name.startsWith("__")) {
        const stem = e.name.slice(0, -4);
        const chunk = (stem === "index" ? path.basename(dir) : stem).replaceAll("$", "_");
        const file = assets.find((a) => a.endsWith(".js") && a.slice(0, a.lastIndexOf("-")) === chunk);
        if (file) out.set(path.relative(ROUTES, path.join(dir, e.name)), `assets/${file}`);
      }
    }
  };
  walk(ROUTES);
  return out;
}

export const webSection: Section = {
  name: "web",
  async run(): Promise<Figure[]> {
    if (!fs.existsSync(path.join(DIST, "index.html"))) {
      process.stderr.write("  web/dist missing: building the web app (npm run build)...\n");
      const r = spawnSync("npm", ["run", "build"], { cwd: ROOT, stdio: ["ignore", "ignore", "inherit"] });
      if (r.status !== 0) throw new Error("npm run build failed");
    }
    const html = fs.readFileSync(path.join(DIST, "index.html"), "utf8");
    const refs = (re: RegExp) => [...html.matchAll(re)].map((m) => (m[1] as string).replace(/^\//, ""));
    const entry = [
      ...refs(/<script[^>]*type="module"[^>]*src="([^"]+)"/g),
      ...refs(/<link[^>]*rel="modulepreload"[^>]*href="([^"]+)"/g),
    ];
    const css = refs(/<link[^>]*rel="stylesheet"[^>]*href="([^"]+)"/g);
    const initial = closure(entry);
    const sum = (files: Iterable<string>) => [...files].reduce((n, f) => n + gzip(f), 0);
    const assets = fs.readdirSync(path.join(DIST, "assets"));
    const allJs = sum(assets.filter((a) => a.endsWith(".js")).map((a) => `assets/${a}`));
    const initialJs = sum(initial);
    const routes = routeChunks(assets);
    const extra = (chunk: string) => [...closure([chunk])].filter((f) => !initial.has(f));
    const home = routes.get("index.tsx");
    const homeJs = home ? sum(extra(home)) : 0;
    let largest = { route: "", bytes: 0 };
    for (const [route, chunk] of routes) {
      const bytes = sum(extra(chunk));
      if (bytes > largest.bytes) largest = { route, bytes };
    }
    const lazy = assets
      .filter((a) => a.endsWith(".js") && !initial.has(`assets/${a}`))
      .map((a) => ({ a, bytes: gzip(`assets/${a}`) }));
    const biggest = lazy.sort((x, y) => y.bytes - x.bytes)[0];
    const s = "web (gzip)";
    const base = { section: s, unit: "KB", baseline: kb(allJs), baselineName: "all JS chunks" };
    return [
      {
        ...base,
        name: "initial JS (entry + preloads)",
        value: kb(initialJs),
        target: "<= 170 KB",
        holds: initialJs <= 170_000,
      },
      { ...base, name: "JS for / (initial + route chunk)", value: kb(initialJs + homeJs) },
      { section: s, name: "initial CSS", value: kb(sum(css)), unit: "KB" },
      { ...base, name: `largest route chunk (${largest.route}, beyond initial)`, value: kb(largest.bytes) },
      ...(biggest
        ? [{ ...base, name: `largest lazy chunk (${biggest.a.replace(/-[\w-]+\.js$/, "")})`, value: kb(biggest.bytes) }]
        : []),
    ];
  },
};
