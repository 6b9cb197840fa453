import { UPGRADE_CODES } from "@fixloop/contract";

export type UpgradeReason = "model_access" | "usage_limit" | "premium_feature";

/** Maps the server's generate refusals to an upgrade reason (spec §8), by error code, never by message text. */
export function upgradeReasonFor(code: string): UpgradeReason | null {
  const reasons = Object.keys(UPGRADE_CODES) as (keyof typeof UPGRADE_CODES)[];
  return reasons.find((r) => UPGRADE_CODES[r] === code) ?? null;
}
