import type { z } from "zod";

/** Validates a process's settings once at start, naming every bad key in one error. */
export function loadEnv<S extends z.ZodType>(
  schema: S,
  source: Record<string, string | undefined>,
  what: string,
): z.infer<S> {
  const parsed = schema.safeParse(source);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join(".")}: ${i.message}`);
    throw new Error(`Invalid ${what} configuration:\n${lines.join("\n")}`);
  }
  return parsed.data;
}

export interface Shutdown {
  /** What the process says when it starts stopping. */
  onStart(reason: string): void;
  /** Closes what the process owns (server, workers, then queues, Redis and the database). */
  close(): Promise<void>;
  /** Past this, the process exits with 1 whatever is still open. */
  graceMs: number;
  /** Runs when the grace period ends, before the exit (given at most 5 s), e.g. to hand unfinished work back. */
  onTimeout?(): void | Promise<void>;
}

const ON_TIMEOUT_MS = 5_000;

/**
 * Stops the process once, on SIGTERM, SIGINT or (when started by the launcher with an IPC
 * channel) the launcher's exit: runs `close`, then exits 0, or 1 after `graceMs`.
 */
export function registerShutdown(s: Shutdown): void {
  let closing = false;
  const stop = async (reason: string) => {
    if (closing) return;
    closing = true;
    s.onStart(reason);
    const force = setTimeout(() => {
      const cap = new Promise<void>((r) => setTimeout(r, ON_TIMEOUT_MS).unref());
      void Promise.race([Promise.resolve(s.onTimeout?.()).catch(() => {}), cap]).finally(() => process.exit(1));
    }, s.graceMs);
    force.unref();
    await s.close();
    process.exit(0);
  };
  process.on("SIGTERM", () => void stop("SIGTERM"));
  process.on("SIGINT", () => void stop("SIGINT"));
  if (process.send) process.on("disconnect", () => void stop("launcher exited"));
}
