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
          // waiting out the outage they cause: two of them share the two cores well.
          maxWorkers: 2,
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
          sequence: { groupOrder: 2 },
          testTimeout: 120_000,
          hookTimeout: 120_000,
          fileParallelism: false,
        },
      },
    ],
  },
});
