import { defineConfig } from "vitest/config";

const globalSetup = ["./testkit/test/global-setup.ts"];

export default defineConfig({
  test: {
    globalSetup,
    projects: [
      {
        extends: true,
        test: {
          name: "unit",
          include: ["{contract,db,runtime,api,worker,testkit,infra,web}/src/**/*.test.ts"],
          exclude: ["**/node_modules/**", "**/*.faults.test.ts"],
          // Vitest's default is one worker fewer than the cores: one on a 2-core machine. Each file
          // has its own schema and queue prefix, and most of its time waits on Postgres, Redis and
          // HTTP, so two files at a time use the two cores better.
          maxWorkers: 2,
          // Files share a worker's loaded modules instead of importing the whole product again each:
          // every file already takes its own database, queue prefix, ports and stand-ins, and the
          // code keeps no per-file state in modules. Measured on the 257 files: imports 48 s
          // against about 400 s, the worker files' CPU time 53 s against 91 s.
          isolate: false,
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        extends: true,
        test: {
          name: "faults",
          include: ["{runtime,api,worker,testkit,infra}/src/**/*.faults.test.ts"],
          // Fault files start their own Postgres, Redis and workers, and spend most of their time
          // waiting out the outage they cause: two of them share the two cores well. `npm test` runs
          // them one at a time beside the other projects (FAULTS_MAX_WORKERS=1), where their waits
          // cost the run nothing.
          maxWorkers: Number(process.env.FAULTS_MAX_WORKERS) || 2,
          sequence: { groupOrder: 1 },
          testTimeout: 120_000,
          hookTimeout: 120_000,
        },
      },
      {
        extends: true,
        test: {
          name: "e2e",
          include: ["web/e2e/**/*.test.ts"],
          globalSetup: [...globalSetup, "./web/e2e/bundles.setup.ts"],
          sequence: { groupOrder: 2 },
          testTimeout: 120_000,
          hookTimeout: 120_000,
          // Each file starts its own stack and browser on free ports with its own database and queue
          // prefix; a browser file waits on its stack as much as it computes, so two at a time use the
          // two cores better (measured: 519 s against 583 s one at a time).
          maxWorkers: 2,
        },
      },
    ],
  },
});
