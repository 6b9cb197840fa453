import type { Figure } from "../report";
import type { Recall } from "./fit";
import type { StageCost, StageResult } from "./model-stages";

const KS = ["@1", "@3", "@5", "@10"] as const;
const mean = (xs: readonly number[]): number => xs.reduce((a, b) => a + b, 0) / (xs.length || 1);
const median = (xs: readonly number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? (s[Math.floor((s.length - 1) / 2)] ?? 0) : Number.NaN;
};
const signed = (x: number) => `${x >= 0 ? "+" : ""}${x.toFixed(3)}`;

/** The stage's cost per issue: mean requests, tokens and USD, median seconds. */
export function costPerIssue(costs: readonly StageCost[]): StageCost {
  return {
    requests: mean(costs.map((c) => c.requests)),
    tokensIn: mean(costs.map((c) => c.tokensIn)),
    tokensOut: mean(costs.map((c) => c.tokensOut)),
    usd: mean(costs.map((c) => c.usd)),
    seconds: median(costs.map((c) => c.seconds)),
  };
}

/** Recall with the stage minus without it, at each k. */
export function added(r: StageResult): Record<(typeof KS)[number], number> {
  return Object.fromEntries(KS.map((k) => [k, r.with[k] - r.without[k]])) as Record<(typeof KS)[number], number>;
}

/** The figures of one measured stage: recall with it beside the same CV ranking without it, and its cost per issue. */
export function stageFigures(r: StageResult, cvLabel: string): Figure[] {
  const section = `localize ${r.stage.label}, ${r.issues} issues`;
  const c = costPerIssue(r.costs);
  const out: Figure[] = KS.map((k) => ({
    section,
    name: `recall${k}, ${cvLabel}, with the stage: ${signed(r.with[k] - r.without[k])}`,
    value: r.with[k],
    unit: "",
    baseline: r.without[k],
    baselineName: "same ranking without the stage",
  }));
  out.push(
    { section, name: "issues where the stage failed (no-model order kept)", value: r.failed.length, unit: "issues" },
    { section, name: "requests per issue (mean)", value: c.requests, unit: "" },
    { section, name: "tokens in per issue (mean)", value: Math.round(c.tokensIn), unit: "tokens" },
    { section, name: "tokens out per issue (mean)", value: Math.round(c.tokensOut), unit: "tokens" },
    ...(r.stage.priced
      ? [{ section, name: "cost per 1,000 issues (mean x 1,000)", value: c.usd * 1000, unit: "USD" }]
      : []),
    { section, name: "stage time per issue (median)", value: c.seconds, unit: "s" },
  );
  return out;
}

const row = (name: string, r: Recall | Record<string, number>, f: (x: number) => string) =>
  `${name.padEnd(8)} ${KS.map((k) => f(r[k] ?? 0).padStart(7)).join(" ")}`;

/** A short table per stage: what was measured, recall without, with and added, cost and failures. */
export function stageTable(r: StageResult, cvLabel: string): string {
  const c = costPerIssue(r.costs);
  const usd = r.stage.priced
    ? `$${c.usd.toFixed(5)}`
    : "USD unknown (the product has no price for this model: OPENAI_COMPATIBLE_PRICES)";
  const lines = [
    `localize ${r.stage.label}: applied to the ${cvLabel} ranking of ${r.issues} issues`,
    `${"".padEnd(8)} ${KS.map((k) => `R${k}`.padStart(7)).join(" ")}`,
    row("without", r.without, (x) => x.toFixed(3)),
    row("with", r.with, (x) => x.toFixed(3)),
    row("added", added(r), signed),
    `gold files ranked better on ${r.moved.up} issues, worse on ${r.moved.down}, the same on ${r.issues - r.moved.up - r.moved.down}`,
    `per issue: ${c.requests.toFixed(1)} requests, ${Math.round(c.tokensIn)} tokens in, ${Math.round(c.tokensOut)} out, ${usd}, median ${c.seconds.toFixed(2)} s (no cached vectors or answers)`,
    `failed on ${r.failed.length} of ${r.issues} issues (kept the no-model order)${r.failed.length ? `, e.g. ${r.failed[0]?.id}: ${r.failed[0]?.why.slice(0, 160)}` : ""}`,
  ];
  return lines.join("\n  ");
}
