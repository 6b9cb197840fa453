import { z } from "zod";
import { isPlanId, PLANS, type PlanId } from "./plans";

/** Solve runs one user may have running at once, by plan, across every worker. */
export type ActiveRunCaps = Record<PlanId, number>;

export const DEFAULT_ACTIVE_RUN_CAPS: ActiveRunCaps = {
  FREE: PLANS.FREE.maxActiveRuns,
  PRO: PLANS.PRO.maxActiveRuns,
  ENTERPRISE: PLANS.ENTERPRISE.maxActiveRuns,
};

/**
 * `MAX_ACTIVE_RUNS_PER_USER`: empty keeps the plans' own caps; a number sets every plan's;
 * `PLAN=n` pairs (comma separated, e.g. `FREE=1,ENTERPRISE=8`) set those plans' and keep the rest.
 */
export function parseActiveRunCaps(text: string): ActiveRunCaps {
  const caps = { ...DEFAULT_ACTIVE_RUN_CAPS };
  const trimmed = text.trim();
  if (!trimmed) return caps;
  const count = (v: string) => {
    if (!/^\d+$/.test(v.trim()) || Number(v) < 1 || Number(v) > 1000)
      throw new Error(`"${v}" is not a whole number from 1 to 1000`);
    return Number(v);
  };
  if (!trimmed.includes("=")) {
    const n = count(trimmed);
    return { FREE: n, PRO: n, ENTERPRISE: n };
  }
  for (const pair of trimmed.split(",")) {
    const [plan = "", value = ""] = pair.split("=").map((p) => p.trim());
    if (!isPlanId(plan)) throw new Error(`"${plan}" is not a plan (FREE, PRO, ENTERPRISE)`);
    caps[plan] = count(value);
  }
  return caps;
}

export const ActiveRunCapsSetting = z
  .string()
  .default("")
  .transform((text, ctx) => {
    try {
      return parseActiveRunCaps(text);
    } catch (err) {
      ctx.addIssue({ code: "custom", message: (err as Error).message });
      return z.NEVER;
    }
  });

/** The first step of a queued run says why it waits: its user's earlier runs (at the cap), or the workers. */
export function queuedNote(ahead: number, cap: number): string {
  if (ahead < cap) return QUEUED_FOR_WORKER;
  return `queued: ${ahead} of your runs ahead`;
}
export const QUEUED_FOR_WORKER = "waiting for a free worker";
