import { spawn } from "node:child_process";
import type { Writable } from "node:stream";
import { StringDecoder } from "node:string_decoder";
import type { OutputStream, SandboxLimitHit, SandboxResult, SandboxRunSpec } from "./sandbox";

export interface ProcessGroupOptions {
  cwd?: string;
  /** Data the command reads on fds 3, 4, … (e.g. bwrap's `--seccomp 3`); each is closed after writing. */
  inputs?: Buffer[];
  /** Starts watching the run; calling `stop` kills the group and reports the wall. Returns the function that ends the watch. */
  guard?: (stop: (hit: SandboxLimitHit) => void) => () => void;
}

/** Keeps the last `max` bytes of a stream of text. */
export class OutputTail {
  private chunks: Buffer[] = [];
  private size = 0;
  truncated = false;

  constructor(private readonly max: number) {}

  push(b: Buffer): void {
    this.chunks.push(b);
    this.size += b.length;
    while (this.size > this.max && this.chunks.length) {
      const first = this.chunks[0] as Buffer;
      const over = this.size - this.max;
      this.truncated = true;
      if (first.length <= over) {
        this.chunks.shift();
        this.size -= first.length;
      } else {
        this.chunks[0] = first.subarray(over);
        this.size -= over;
      }
    }
  }

  text(): string {
    return Buffer.concat(this.chunks).toString("utf8");
  }
}

/**
 * Runs argv in its own process group; on timeout or abort the whole group is killed (the
 * sandbox backends make sure nothing inside can leave it). Output goes to `onOutput` as it
 * comes and its tail to the result.
 */
export function runProcessGroup(
  argv: string[],
  spec: Pick<SandboxRunSpec, "limits" | "onOutput" | "signal">,
  env: Record<string, string>,
  opts: ProcessGroupOptions = {},
): Promise<SandboxResult> {
  const started = Date.now();
  const tail = new OutputTail(spec.limits.outputBytes);
  return new Promise((resolve) => {
    const [cmd = "", ...args] = argv;
    const inputs = opts.inputs ?? [];
    const child = spawn(cmd, args, {
      env,
      cwd: opts.cwd,
      detached: true,
      stdio: ["ignore", "pipe", "pipe", ...inputs.map(() => "pipe" as const)],
    });
    inputs.forEach((b, i) => {
      const fd = child.stdio[3 + i] as Writable | null | undefined;
      fd?.on("error", () => undefined);
      fd?.end(b);
    });
    let timedOut = false;
    let cancelled = false;
    let limitHit: SandboxLimitHit | undefined;
    const kill = () => {
      try {
        if (child.pid) process.kill(-child.pid, "SIGKILL");
      } catch {
        /* already gone */
      }
    };
    const timer = setTimeout(() => {
      timedOut = true;
      kill();
    }, spec.limits.timeoutMs);
    const onAbort = () => {
      cancelled = true;
      kill();
    };
    spec.signal?.addEventListener("abort", onAbort, { once: true });
    const unguard = opts.guard?.((hit) => {
      limitHit ??= hit;
      kill();
    });
    if (spec.signal?.aborted) onAbort(); // aborted before the spawn: the listener would never fire
    // One decoder per stream: a character split across two reads is decoded whole.
    const decoders = { stdout: new StringDecoder("utf8"), stderr: new StringDecoder("utf8") };
    const onData = (stream: OutputStream) => (b: Buffer) => {
      tail.push(b);
      const text = decoders[stream].write(b);
      if (text) spec.onOutput?.(text, stream);
    };
    child.stdout?.on("data", onData("stdout"));
    child.stderr?.on("data", onData("stderr"));
    const done = (exitCode: number | null) => {
      for (const stream of ["stdout", "stderr"] as const) {
        const rest = decoders[stream].end(); // an incomplete character at the very end
        if (rest) spec.onOutput?.(rest, stream);
      }
      clearTimeout(timer);
      unguard?.();
      spec.signal?.removeEventListener("abort", onAbort);
      kill();
      resolve({
        exitCode,
        timedOut,
        cancelled,
        output: tail.text(),
        truncated: tail.truncated,
        durationMs: Date.now() - started,
        ...(limitHit ? { limitHit } : {}),
      });
    };
    child.on("error", (err) => {
      tail.push(Buffer.from(`\n${err.message}\n`));
      done(null);
    });
    child.on("close", (code) => done(timedOut || cancelled || limitHit ? null : code));
  });
}
