/** A stream the ticker watches: `wrote` is set on every real write and cleared by each tick. */
export interface Beating {
  wrote: boolean;
  /** Streams with the same key are reported together (one check per run, not per stream). */
  readonly key: string;
}

/**
 * One timer for every open stream instead of one per stream. Each tick reports, grouped by key,
 * the streams that wrote nothing since the previous tick; a stream is therefore never silent for
 * more than two ticks when the callback writes to every stream it is given.
 */
export class HeartbeatTicker<T extends Beating> {
  private readonly members = new Set<T>();
  private timer: NodeJS.Timeout | null = null;

  constructor(
    private readonly everyMs: number,
    private readonly onQuiet: (groups: Map<string, T[]>) => void,
  ) {}

  get size(): number {
    return this.members.size;
  }

  add(m: T): void {
    this.members.add(m);
    if (this.timer) return;
    this.timer = setInterval(() => this.tick(), this.everyMs);
    this.timer.unref();
  }

  delete(m: T): void {
    this.members.delete(m);
    if (this.members.size || !this.timer) return;
    clearInterval(this.timer);
    this.timer = null;
  }

  tick(): void {
    const quiet = new Map<string, T[]>();
    for (const m of this.members) {
      if (m.wrote) {
        m.wrote = false;
        continue;
      }
      const group = quiet.get(m.key);
      if (group) group.push(m);
      else quiet.set(m.key, [m]);
    }
    if (quiet.size) this.onQuiet(quiet);
  }
}
