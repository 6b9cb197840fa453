import { expect } from "vitest";
import type { ModelSandbox } from "@fixloop/testkit/sandbox";
import { readSse } from "./sse.testkit";
import { solveKit, type SolveKit } from "./solve.testkit";

export const OPERATOR_RUN_CAP = 50;

/**
 * The cost tests' setup: the solve kit with an operator's per-run cap and repository tests off
 * (a repair round would add a model request to the ones counted), and the calls they share.
 * Fields are set once the file's `beforeAll` ran.
 */
export function costsKit() {
  const t: SolveKit = solveKit({
    env: (models: ModelSandbox) => ({
      ...models.env,
      RUN_COST_CAP_USD: String(OPERATOR_RUN_CAP),
      SANDBOX_BACKEND: "off",
    }),
  });
  return {
    t,
    async setCaps(caps: { runCapUsd: number | null; monthlyCapUsd: number | null }) {
      const res = await t.stack.app.request("/api/costs/caps", {
        method: "PUT",
        headers: t.headers,
        body: JSON.stringify(caps),
      });
      return { status: res.status, body: (await res.json()) as Record<string, any> };
    },
    /** Starts a solve of the issue; returns its run id. */
    async generate(issueId: string): Promise<string> {
      const res = await t.generate({ issueId });
      expect(res.status).toBe(202);
      return ((await res.json()) as { runId: string }).runId;
    },
    /** Follows the run's events to its end; returns them. */
    follow: async (runId: string) => readSse(await t.events(runId)),
    run: (id: string) => t.stack.db.selectFrom("solve_runs").selectAll().where("id", "=", id).executeTakeFirstOrThrow(),
    steps: (id: string) => t.stack.db.selectFrom("run_steps").selectAll().where("run_id", "=", id).execute(),
    used: async () =>
      (await t.stack.db.selectFrom("usage_counters").select("used").where("user_id", "=", t.userId).executeTakeFirst())
        ?.used ?? 0,
  };
}
