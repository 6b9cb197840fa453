import fs from "node:fs";
import path from "node:path";
import { spawnSync } from "node:child_process";
import type { TestProject } from "vitest/node";
import { ROOT } from "@fixloop/infra/launcher";

declare module "vitest" {
  export interface ProvidedContext {
    /** The API's and worker's bundles every browser file's stack runs (built once per run). */
    e2eEntries: { api: string; worker: string };
  }
}

let built: { api: string; worker: string } | undefined;

/**
 * Builds the API and the worker once for the run, the image's way (infra/docker/bundle.mjs), beside
 * where the image keeps them so their npm imports resolve: each browser file's stack then starts
 * them on plain node instead of compiling the sources through tsx in every process it starts.
 */
export function setup(project: TestProject): void {
  const tag = `e2e-${process.pid}`;
  built = { api: path.join(ROOT, "api/dist", `${tag}.mjs`), worker: path.join(ROOT, "worker/dist", `${tag}.mjs`) };
  const r = spawnSync(
    process.execPath,
    [path.join(ROOT, "infra/docker/bundle.mjs"), `api=${built.api}`, `worker=${built.worker}`],
    { encoding: "utf8" },
  );
  if (r.status !== 0) throw new Error(`Bundling the API and the worker failed:\n${r.stderr}`);
  project.provide("e2eEntries", built);
}

export function teardown(): void {
  for (const file of Object.values(built ?? {})) {
    fs.rmSync(file, { force: true });
    fs.rmSync(`${file}.map`, { force: true });
  }
}
