/** One measured figure, printed beside the baseline measured in the same run. */
export interface Figure {
  section: string;
  name: string;
  value: number;
  unit: string;
  baseline?: number;
  baselineName?: string;
  /** Target description and whether it holds, when the figure has one. */
  target?: string;
  holds?: boolean;
}

export function ratio(f: Figure): string {
  if (f.baseline === undefined || f.baseline === 0) return "";
  return `${(f.value / f.baseline).toFixed(2)}x`;
}

const fmt = (v: number | undefined, unit: string) =>
  v === undefined ? "" : `${Number.isInteger(v) ? v : v.toFixed(v < 10 ? 3 : 1)} ${unit}`;

export function printTable(figures: Figure[]): string {
  const rows = figures.map((f) => [
    f.section,
    f.name,
    fmt(f.value, f.unit),
    f.baselineName ? `${fmt(f.baseline, f.unit)} (${f.baselineName})` : "",
    ratio(f),
    f.target ? `${f.target}: ${f.holds ? "holds" : "MISSED"}` : "",
  ]);
  const head = ["section", "figure", "value", "baseline", "ratio", "target"];
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? "").length)));
  const line = (r: string[]) => r.map((c, i) => c.padEnd(widths[i] ?? 0)).join(" | ");
  return [line(head), widths.map((w) => "-".repeat(w)).join("-|-"), ...rows.map(line)].join("\n");
}

export function percentile(values: number[], p: number): number {
  if (!values.length) return NaN;
  const s = [...values].sort((a, b) => a - b);
  const idx = Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1));
  return s[idx] as number;
}
