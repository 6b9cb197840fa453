export interface EventuallyOptions {
  /** How long to keep trying, in ms; default 5 s. */
  timeout?: number;
  /** Pause between tries, in ms; default 50. */
  interval?: number;
  /** What is awaited, for the timeout's message. */
  what?: string;
}

/**
 * The one way tests wait for something to become true: calls `fn` until it neither throws nor
 * returns `false`, and returns what it returned. `fn` is either an assertion (`expect(...)` inside,
 * so a timeout reports the last failed assertion) or a check returning `false` for "not yet".
 * A reader that answers `null` or `undefined` for "not yet" writes `(await read()) ?? false`.
 */
export async function eventually<T>(
  fn: () => T | Promise<T>,
  opts: EventuallyOptions = {},
): Promise<Exclude<T, false>> {
  const timeout = opts.timeout ?? 5_000;
  const interval = opts.interval ?? 50;
  const end = Date.now() + timeout;
  const attempt = async (): Promise<{ value: T } | { error: unknown }> => {
    try {
      return { value: await fn() };
    } catch (error) {
      return { error };
    }
  };
  for (;;) {
    const got = await attempt();
    if ("value" in got && got.value !== false) return got.value as Exclude<T, false>;
    if (Date.now() >= end) {
      const what = opts.what ? ` waiting for ${opts.what}` : "";
      const error = "error" in got ? got.error : null;
      const reason = error === null ? "it stayed false" : error instanceof Error ? error.message : String(error);
      throw new Error(`timed out after ${timeout} ms${what}: ${reason}`, { cause: error });
    }
    await new Promise((r) => setTimeout(r, interval));
  }
}
