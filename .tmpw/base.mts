import { Worker } from "node:worker_threads";
const t0 = performance.now();
const ws = [0, 1].map(() => new Promise((res, rej) => { const w = new Worker(`require("node:worker_threads").parentPort.postMessage(3)`, { eval: true }); w.on("message", (m) => { res(m); void w.terminate(); }); w.on("error", rej); }));
console.log(await Promise.all(ws), (performance.now() - t0).toFixed(0), "ms");
