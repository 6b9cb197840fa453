import type { GeneratedSolution, ReproductionAnswer } from "@fixloop/contract";
import type { AgentScript } from "./answers.agent";

export type ModelSandboxProvider = "openai" | "groq" | "anthropic";

/** What a test scripts as the model's answer: a solution, or raw tool-call arguments text. */
export type ScriptedAnswer = GeneratedSolution | { raw: string };

export interface FaultSpec {
  status: 429 | 500 | 503 | 529;
  /** Seconds, sent as `retry-after`. */
  retryAfter?: number;
  times?: number;
}

export interface ReceivedRequest {
  provider: ModelSandboxProvider;
  model: string;
  system: string;
  /** Every user-side text of the conversation (messages and tool results), joined. */
  prompt: string;
  /** The tool the request asked the model to call (a fix, a reproduction test, a file choice). */
  tool?: string;
  /** An Investigate agent's request: the turn it asks for (1-based). */
  agentTurn?: number;
  /**
   * An agent turn's tool call ids: those its tool results answer (the previous turn's calls,
   * echoed back) and those the stand-in's answer made, with the answer's stop reason.
   */
  toolIds?: { answered: string[]; made: string[]; stop: string };
  /** The path the request came in on (e.g. `/compatible/v1/chat/completions`). */
  path?: string;
  at: number;
}

/** One `POST /v1/embeddings` the stand-in received. */
export interface ReceivedEmbeddingsRequest {
  model: string;
  inputs: string[];
  at: number;
}

/** Which candidate (0-based) a prompt asks for; 0 for a single attempt. */
export function candidateIndex(prompt: string): number {
  const m = /Candidate (\d) of \d/.exec(prompt);
  return m?.[1] ? Number(m[1]) - 1 : 0;
}

/** In-process test controls of one model stand-in; all state belongs to this instance. */
export class ModelSandboxControl {
  readonly requests: ReceivedRequest[] = [];
  abortedRequests = 0;
  /** Embedding requests, apart from the chat requests above. */
  readonly embeddingRequests: ReceivedEmbeddingsRequest[] = [];
  private embeddingFaults: FaultSpec[] = [];
  private rules: { matcher: (prompt: string) => boolean; answer: ScriptedAnswer }[] = [];
  private agents: { matcher: (task: string) => boolean; script: AgentScript }[] = [];
  private reproductions: { matcher: (prompt: string) => boolean; answer: ReproductionAnswer }[] = [];
  private faults: FaultSpec[] = [];
  private malformed = 0;
  private hangs = 0;
  private latencyMs = 0;
  private usageOverride: { input: number; output: number } | null = null;

  /** The latest registered rule whose matcher accepts the prompt wins over older ones and the defaults. */
  respondWith(matcher: (prompt: string) => boolean, answer: ScriptedAnswer): void {
    this.rules.unshift({ matcher, answer });
  }

  /**
   * Mixed candidates: the request that writes candidate k (its prompt says "Candidate k of N") gets
   * `answers[k - 1]` (cycling through them); a single attempt gets the first.
   */
  respondPerCandidate(matcher: (prompt: string) => boolean, answers: ScriptedAnswer[]): void {
    answers.forEach((answer, i) =>
      this.rules.unshift({ matcher: (p) => matcher(p) && candidateIndex(p) % answers.length === i, answer }),
    );
  }

  /**
   * The answer to a reproduction-test request (tool `write_reproduction_test`) whose prompt the
   * matcher accepts; the latest rule wins over older ones and the seeded fixes' reproductions.
   */
  reproduceWith(matcher: (prompt: string) => boolean, answer: ReproductionAnswer): void {
    this.reproductions.unshift({ matcher, answer });
  }

  /**
   * Scripts the Investigate agent whose task (the first message: the issue and step 3's files)
   * the matcher accepts; the latest rule wins. Without one the stand-in makes its single-pass answer turn by turn.
   */
  agentWith(matcher: (task: string) => boolean, script: AgentScript): void {
    this.agents.unshift({ matcher, script });
  }

  scriptedAgent(task: string): AgentScript | undefined {
    return this.agents.find((a) => a.matcher(task))?.script;
  }

  scriptedReproduction(prompt: string): ReproductionAnswer | undefined {
    return this.reproductions.find((r) => r.matcher(prompt))?.answer;
  }

  failNext(spec: FaultSpec): void {
    for (let i = 0; i < (spec.times ?? 1); i++) this.faults.push(spec);
  }

  /** The next embedding requests fail like this (chat requests are not affected). */
  failEmbeddingsNext(spec: FaultSpec): void {
    for (let i = 0; i < (spec.times ?? 1); i++) this.embeddingFaults.push(spec);
  }

  malformedNext(times = 1): void {
    this.malformed += times;
  }

  latency(ms: number): void {
    this.latencyMs = ms;
  }

  /** The next request is never answered; it ends only when the client aborts it. */
  hangNext(times = 1): void {
    this.hangs += times;
  }

  /** Report these token counts instead of the ones estimated from the text. */
  usage(tokens: { input: number; output: number } | null): void {
    this.usageOverride = tokens;
  }

  reset(): void {
    this.requests.length = 0;
    this.abortedRequests = 0;
    this.embeddingRequests.length = 0;
    this.embeddingFaults = [];
    this.rules = [];
    this.reproductions = [];
    this.agents = [];
    this.faults = [];
    this.malformed = 0;
    this.hangs = 0;
    this.latencyMs = 0;
    this.usageOverride = null;
  }

  /** @internal consumed by the server, one request at a time */
  takeFault(): FaultSpec | undefined {
    return this.faults.shift();
  }

  takeEmbeddingFault(): FaultSpec | undefined {
    return this.embeddingFaults.shift();
  }

  takeHang(): boolean {
    if (this.hangs === 0) return false;
    this.hangs -= 1;
    return true;
  }

  takeMalformed(): boolean {
    if (this.malformed === 0) return false;
    this.malformed -= 1;
    return true;
  }

  currentLatency(): number {
    return this.latencyMs;
  }

  scripted(prompt: string): ScriptedAnswer | undefined {
    return this.rules.find((r) => r.matcher(prompt))?.answer;
  }

  tokens(estimate: { input: number; output: number }): { input: number; output: number } {
    return this.usageOverride ?? estimate;
  }
}
