import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { startServices } from "@fixloop/testkit/services";
import { printTable, type Figure } from "./report";
import type { BenchContext } from "./section.types";
import { SECTIONS } from "./sections";

// `npm run bench [-- --only a,b] [--json out.json] [--set small|all|nonpy] [--mirrors DIR]`
const { values } = parseArgs({
  options: {
    only: { type: "string" },
    json: { type: "string" },
    set: { type: "string", default: "small" },
    mirrors: { type: "string", default: process.env.MIRROR_ROOT ?? "" },
  },
});
const only = values.only ? new Set(values.only.split(",")) : null;
const chosen = SECTIONS.filter((s) => !only || only.has(s.name));
if (!chosen.length) {
  console.error(`Unknown section. Sections: ${SECTIONS.map((s) => s.name).join(", ")}`);
  process.exit(2);
}

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "fixloop-bench-"));
fs.chmodSync(dir, 0o755);
const services = await startServices({ dataDir: dir, durable: false, databaseName: "bench" });
const ctx: BenchContext = { dir, services, set: values.set ?? "small", mirrors: values.mirrors ?? "", appendix: [] };
const figures: Figure[] = [];
const t0 = performance.now();
try {
  for (const section of chosen) {
    const s0 = performance.now();
    process.stderr.write(`running ${section.name}...\n`);
    try {
      figures.push(...(await section.run(ctx)));
    } catch (err) {
      process.stderr.write(`  ${section.name} failed: ${(err as Error).stack}\n`);
    }
    process.stderr.write(`  ${section.name} took ${((performance.now() - s0) / 1000).toFixed(1)} s\n`);
  }
} finally {
  await services.stop();
  fs.rmSync(dir, { recursive: true, force: true });
}
console.log(printTable(figures));
for (const table of ctx.appendix) console.log(`\n${table}`);
console.log(
  `\n${os.cpus().length} cores, node ${process.version}, total ${((performance.now() - t0) / 1000).toFixed(0)} s`,
);
if (values.json) fs.writeFileSync(values.json, JSON.stringify({ at: new Date().toISOString(), figures }, null, 2));
process.exit(0);
