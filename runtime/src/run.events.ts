import type { Redis } from "ioredis";
import { RUN_EVENTS_TTL_SECONDS, RunEvent, runEventsKey } from "@fixloop/contract";

/** A run's event stream: appends after the state is stored, and knows what it already holds. */
export interface RunEventLog {
  /** Appends the event unless an equal step/status (running, pending: with the same detail) or any terminal event is already there; `tests` chunks always append (until a terminal). */
  emit(event: RunEvent): Promise<string | null>;
}

/** A running step may report progress several times; each distinct report is one event. Test output chunks are never de-duplicated. */
const keyOf = (e: RunEvent): string | null =>
  e.type === "tests"
    ? null
    : e.type === "candidate"
      ? `candidate:${e.n}:${e.state}:${e.rank ?? ""}`
      : e.type === "agent"
        ? `agent:${e.n}:${e.seq}`
        : e.type !== "step"
          ? "terminal"
          : e.status === "running" || e.status === "pending"
            ? `step:${e.step}:${e.status}:${JSON.stringify(e.detail)}`
            : `step:${e.step}:${e.status}`;

/** Opens a run's log, reading what earlier attempts already appended so a retry never duplicates. */
export async function openRunEventLog(redis: Redis, prefix: string, runId: string): Promise<RunEventLog> {
  const key = runEventsKey(prefix, runId);
  const seen = new Set<string>();
  const entries = await redis.xrange(key, "-", "+");
  for (const [, fields] of entries) {
    const parsed = parseEntry(fields);
    const k = parsed && keyOf(parsed);
    if (k) seen.add(k);
  }
  return {
    async emit(event) {
      const k = keyOf(event);
      if (seen.has("terminal") || (k && seen.has(k))) return null;
      if (k) seen.add(k);
      const id = await redis.xadd(key, "*", "data", JSON.stringify(event));
      await redis.expire(key, RUN_EVENTS_TTL_SECONDS);
      return id;
    },
  };
}

/** Decodes one stream entry's field list (`data <json>`). */
export function parseEntry(fields: string[]): RunEvent | null {
  const i = fields.indexOf("data");
  const raw = i >= 0 ? fields[i + 1] : undefined;
  if (!raw) return null;
  try {
    const r = RunEvent.safeParse(JSON.parse(raw));
    return r.success ? r.data : null;
  } catch {
    return null;
  }
}
