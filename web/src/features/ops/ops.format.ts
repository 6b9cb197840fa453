/** A duration for people: "850 ms", "12.3 s", "4 min 5 s", "2 h 10 min". */
export function formatDuration(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)} ms`;
  const s = ms / 1000;
  if (s < 60) return `${s < 10 ? s.toFixed(1) : Math.round(s)} s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m} min ${Math.floor(s % 60)} s`;
  const h = Math.floor(m / 60);
  if (h < 48) return `${h} h ${m % 60} min`;
  return `${Math.floor(h / 24)} d ${h % 24} h`;
}

/** An age or uptime in whole seconds and up: "4 s", "3 min 20 s". */
export const formatAge = (ms: number) => (ms < 60_000 ? `${Math.floor(ms / 1000)} s` : formatDuration(ms));

/** How long ago `iso` was, relative to `now`: "just now", "3 s ago". */
export function ago(iso: string, now: number): string {
  const ms = Math.max(0, now - Date.parse(iso));
  return ms < 1000 ? "just now" : `${formatAge(ms)} ago`;
}

export const percent = (r: number | null) => (r === null ? "—" : `${(r * 100).toFixed(r > 0 && r < 0.1 ? 1 : 0)}%`);

const COMPACT = new Intl.NumberFormat("en", { notation: "compact", maximumFractionDigits: 1 });
/** A count that fits a narrow cell: 9,999 then 12K, 1.2M. */
export const count = (n: number) => (n < 10_000 ? n.toLocaleString("en") : COMPACT.format(n));
