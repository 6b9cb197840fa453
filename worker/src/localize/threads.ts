import { createRequire } from "node:module";
import { availableParallelism } from "node:os";
import { Worker } from "node:worker_threads";
import type { ScanItem, ScannedBatch } from "./scan";
import { threadScript } from "./thread-bundle";
import type { ThreadData, ThreadRequest } from "./threads.worker";
import { DEF_KEYWORDS } from "./tokenize";
import type { Captures, Declaration } from "./tree-query";

export type { Captures, Declaration } from "./tree-query";
export type { ScanItem, ScannedBatch, ScannedFile } from "./scan";

export interface ParseJob {
  /** Absolute path of the grammar's wasm file. */
  wasm: string;
  /** Query source with `@def` and `@imp` captures. */
  query: string;
  text: string;
}

interface Reply {
  id: number;
  caps?: Captures | null;
  decls?: Declaration[];
  scan?: ScannedBatch;
  error?: string;
}

interface Pending {
  resolve(reply: Reply): void;
  reject(error: Error): void;
  /** Characters of text it sends (see `#send`). */
  weight: number;
}

interface Thread {
  worker: Worker;
  pending: Map<number, Pending>;
  /** Characters of text of its pending work. */
  load: number;
}

/**
 * A few threads for the CPU-bound parts of a localization (tree-sitter parses, cutting file
 * contents into words), so that it uses every core. Threads start on first use, hold the
 * process open only while work is under way, and a thread that dies is replaced on the next
 * call (its pending work fails).
 */
export class LocalizeThreads {
  readonly size: number;
  readonly #data: ThreadData;
  #threads: (Thread | undefined)[] = [];
  #next = 0;
  #ids = 0;

  constructor(size: number, treeSitter: string) {
    this.size = size;
    this.#data = { treeSitter, defKeywords: [...DEF_KEYWORDS] };
  }

  /** Captures of one parse; `undefined` when tree-sitter gives no tree. */
  async parse(job: ParseJob): Promise<Captures | undefined> {
    return (await this.#send(job, job.text.length)).caps ?? undefined;
  }

  /** Declarations matched by a symbol query whose kind captures are `kinds`; `undefined` without a tree. */
  async declarations(job: ParseJob & { kinds: string[] }): Promise<Declaration[] | undefined> {
    return (await this.#send(job, job.text.length)).decls;
  }

  /** Words of a batch of texts (or local files, read on the thread), with each text's content hash. */
  async scan(texts: readonly ScanItem[]): Promise<ScannedBatch> {
    const chars = texts.reduce((n, t) => n + (typeof t === "string" ? t.length : 0), 0);
    const { scan } = await this.#send({ texts }, chars);
    if (!scan) throw new Error("scan thread gave no result");
    return scan;
  }

  /** Stops the threads (pending work fails). */
  async close(): Promise<void> {
    const threads = this.#threads;
    this.#threads = [];
    await Promise.all(threads.map((t) => t?.worker.terminate()));
  }

  /**
   * To the thread with the fewest characters of text pending (`weight`: this message's), taking
   * turns among equally loaded ones: a few large files then do not queue behind each other.
   */
  #send(message: Omit<ThreadRequest, "id">, weight: number): Promise<Reply> {
    const first = this.#next++;
    let slot = first % this.size;
    for (let k = 1; k < this.size; k++) {
      const s = (first + k) % this.size;
      if ((this.#threads[s]?.load ?? 0) < (this.#threads[slot]?.load ?? 0)) slot = s;
    }
    const thread = this.#threads[slot] ?? this.#start(slot);
    const id = this.#ids++;
    return new Promise<Reply>((resolve, reject) => {
      if (thread.pending.size === 0) thread.worker.ref();
      thread.pending.set(id, { resolve, reject, weight });
      thread.load += weight;
      thread.worker.postMessage({ id, ...message });
    });
  }

  #start(slot: number): Thread {
    // The bundled entry runs on plain JavaScript: no TypeScript loader is started in the thread.
    const worker = new Worker(threadScript(), { eval: true, execArgv: [], workerData: this.#data });
    worker.unref();
    const thread: Thread = { worker, pending: new Map(), load: 0 };
    const settle = (id: number, fn: (p: Pending) => void): void => {
      const p = thread.pending.get(id);
      if (!p) return;
      thread.pending.delete(id);
      thread.load -= p.weight;
      if (thread.pending.size === 0) worker.unref();
      fn(p);
    };
    worker.on("message", (m: Reply) =>
      settle(m.id, (p) => (m.error !== undefined ? p.reject(new Error(m.error)) : p.resolve(m))),
    );
    const fail = (error: Error): void => {
      if (this.#threads[slot] === thread) this.#threads[slot] = undefined;
      for (const id of [...thread.pending.keys()]) settle(id, (p) => p.reject(error));
    };
    worker.on("error", fail);
    worker.on("exit", (code) => fail(new Error(`localize thread exited with code ${code}`)));
    this.#threads[slot] = thread;
    return thread;
  }
}

const require = createRequire(import.meta.url);
let shared: LocalizeThreads | undefined;

/** The process's localize threads: one per core, at most 4; none on a single core. */
export function localizeThreads(): LocalizeThreads {
  if (!shared) {
    const cores = availableParallelism();
    shared = new LocalizeThreads(cores > 1 ? Math.min(4, cores) : 0, require.resolve("web-tree-sitter"));
  }
  return shared;
}

/** Sets how many threads localizations use (0: all work in-process); stops the current ones. */
export function setLocalizeThreads(n: number): void {
  void shared?.close();
  shared = new LocalizeThreads(Math.max(0, Math.floor(n)), require.resolve("web-tree-sitter"));
}

/** Makes localizations use `threads` (tests use it to hand in a pool that fails). */
export function useLocalizeThreads(threads: LocalizeThreads): void {
  if (shared !== threads) void shared?.close();
  shared = threads;
}
