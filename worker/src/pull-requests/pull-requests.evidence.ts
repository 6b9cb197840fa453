interface TestEvidence {
  status?: string;
  command?: string;
  base?: unknown;
  patched?: unknown;
  fixed?: unknown;
  regressions?: unknown;
}

/** A count or list of tests, as `3 (a, b, c)`; lists past 5 names are shortened. */
function tests(v: unknown): string | null {
  if (typeof v === "number") return String(v);
  if (!Array.isArray(v)) return null;
  const names = v.filter((x): x is string => typeof x === "string");
  if (!names.length) return String(v.length);
  return `${v.length} (${names.slice(0, 5).map((n) => `\`${n}\``).join(", ")}${names.length > 5 ? ", ..." : ""})`;
}

/** One run's result (`{passed, failed}` counts, or a status word). */
function run(v: unknown): string | null {
  if (typeof v === "string") return v;
  if (!v || typeof v !== "object") return null;
  const r = v as { passed?: unknown; failed?: unknown; status?: unknown };
  const counts = [typeof r.passed === "number" ? `${r.passed} passed` : null, typeof r.failed === "number" ? `${r.failed} failed` : null].filter(Boolean);
  if (counts.length) return counts.join(", ");
  return typeof r.status === "string" ? r.status : null;
}

/** The repository's tests run before and after the change, when the solve ran them. */
export function testLines(meta: Record<string, unknown>): string[] {
  const t = meta.tests;
  if (!t || typeof t !== "object") return [];
  const e = t as TestEvidence;
  const lines = [`- Tests: ${typeof e.status === "string" ? e.status : "run"}${typeof e.command === "string" ? ` (\`${e.command}\`)` : ""}`];
  const base = run(e.base);
  const patched = run(e.patched);
  if (base) lines.push(`  - Before the change: ${base}`);
  if (patched) lines.push(`  - After the change: ${patched}`);
  const fixed = tests(e.fixed);
  const regressions = tests(e.regressions);
  if (fixed) lines.push(`  - Fixed by the change: ${fixed}`);
  if (regressions) lines.push(`  - Regressions: ${regressions}`);
  return lines;
}
