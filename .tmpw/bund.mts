import { Worker } from "node:worker_threads";
const t0 = performance.now();
const esbuild = await import("esbuild");
const t1 = performance.now();
const out = esbuild.buildSync({ entryPoints: [new URL("./w.ts", import.meta.url).pathname], bundle: true, write: false, format: "cjs", platform: "node", target: "node20" });
const code = out.outputFiles[0].text;
const t2 = performance.now();
const ws = [0, 1].map(() => new Promise((res, rej) => { const w = new Worker(code, { eval: true, execArgv: [] }); w.on("message", (m) => { res(m); void w.terminate(); }); w.on("error", rej); }));
console.log(await Promise.all(ws), (t1 - t0).toFixed(0), (t2 - t1).toFixed(0), (performance.now() - t0).toFixed(0), "ms", code.length);
