import { TESTS_EVENT_OUTPUT_MAX, type LiveTestCounts, type TestsEvent, type TestsPhase } from "@fixloop/contract";

/** Most live output one phase streams; the rest is summarised (the log tail keeps the end). */
export const STREAM_MAX_BYTES = 1024 * 1024;
export const STREAM_INTERVAL_MS = 250;

/**
 * Batches a phase's output into `tests` events: one about every 250 ms while output comes, and
 * a final `done: true` one. Emits never overlap, so events stay in order.
 */
export class TestsEventStream {
  private buffer = "";
  private streamed = 0;
  private dropped = 0;
  private timer: NodeJS.Timeout | null = null;
  private chain: Promise<void> = Promise.resolve();

  constructor(
    private readonly phase: TestsPhase,
    private readonly emit: (e: TestsEvent) => Promise<unknown>,
    private readonly counts: () => LiveTestCounts,
  ) {}

  push(chunk: string): void {
    const room = STREAM_MAX_BYTES - this.streamed - this.buffer.length;
    if (room <= 0) this.dropped += chunk.length;
    else this.buffer += chunk.length > room ? chunk.slice(0, room) : chunk;
    if (chunk.length > room && room > 0) this.dropped += chunk.length - room;
    this.timer ??= setTimeout(() => {
      this.timer = null;
      this.flush(false);
    }, STREAM_INTERVAL_MS);
  }

  private flush(done: boolean): void {
    while (Buffer.byteLength(this.buffer) > TESTS_EVENT_OUTPUT_MAX) this.send(this.takeChunk(), false);
    let output = this.takeChunk();
    if (done && this.dropped)
      output += `\n[${this.dropped} more characters of output not streamed; the end is kept in the log tail]\n`;
    if (output || done) this.send(output, done);
  }

  private takeChunk(): string {
    let out = this.buffer.slice(0, TESTS_EVENT_OUTPUT_MAX);
    while (Buffer.byteLength(out) > TESTS_EVENT_OUTPUT_MAX)
      out = out.slice(0, out.length - Math.ceil((Buffer.byteLength(out) - TESTS_EVENT_OUTPUT_MAX) / 3) - 1);
    this.buffer = this.buffer.slice(out.length);
    this.streamed += out.length;
    return out;
  }

  private send(output: string, done: boolean): void {
    const event: TestsEvent = {
      type: "tests",
      phase: this.phase,
      output,
      counts: this.counts(),
      done,
      at: new Date().toISOString(),
    };
    this.chain = this.chain
      .then(() => this.emit(event))
      .then(
        () => undefined,
        () => undefined,
      );
  }

  /** Sends what is left and the final event; resolves once every event is stored. */
  async end(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.flush(true);
    await this.chain;
  }
}
