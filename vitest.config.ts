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
          testTimeout: 120_000,
          hookTimeout: 120_000,
        },
      },
      {
        extends: true,
        test: {
          name: "e2e",
          include: ["web/e2e/**/*.test.ts"],
          testTimeout: 120_000,
          hookTimeout: 120_000,
          fileParallelism: false,
        },
      },
    ],
  },
});
