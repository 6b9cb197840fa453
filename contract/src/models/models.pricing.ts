import type { ModelInfo } from "./catalog";
import { AGENT_TURN_OUTPUT_TOKENS, AGENT_TURN_PROMPT_TOKENS, AGENT_TYPICAL_TURNS } from "../agent";

/** USD per million tokens, input and output. */
export interface Price {
  inputUsdPerMTok: number;
  outputUsdPerMTok: number;
}

/** Self-hosted models cost nothing unless the operator prices them (`OPENAI_COMPATIBLE_PRICES`). */
export const SELF_HOSTED_DEFAULT_PRICE: Price = { inputUsdPerMTok: 0, outputUsdPerMTok: 0 };

/** Output tokens a typical answer takes: the estimate before a call assumes this much. */
export const TYPICAL_OUTPUT_TOKENS = 2_000;
/** Prompt sizes seen before the relevant files are known: a small and a large repository's prompt. */
export const TYPICAL_PROMPT_TOKENS = { low: 3_000, high: 30_000 } as const;

const ENTRY = /^(.+)=(\d+(?:\.\d+)?)\/(\d+(?:\.\d+)?)$/;

/**
 * Parses `model=input/output` entries (USD per million tokens), comma separated, e.g.
 * `qwen2.5-coder:7b=0.1/0.3`. Throws on an entry it cannot read, naming it.
 */
export function parsePrices(text: string): Record<string, Price> {
  const out: Record<string, Price> = {};
  for (const raw of text.split(",")) {
    const entry = raw.trim();
    if (!entry) continue;
    const m = ENTRY.exec(entry);
    if (!m?.[1] || !m[2] || !m[3]) throw new Error(`"${entry}" is not model=input/output in USD per million tokens`);
    out[m[1].trim()] = { inputUsdPerMTok: Number(m[2]), outputUsdPerMTok: Number(m[3]) };
  }
  return out;
}

/** USD for the given token counts at the model's prices, rounded to 1e-8. */
export function costUsd(model: Price, tokensIn: number, tokensOut: number): number {
  const usd = (tokensIn * model.inputUsdPerMTok + tokensOut * model.outputUsdPerMTok) / 1_000_000;
  return Math.round(usd * 1e8) / 1e8;
}

/** Token count of a text as providers' tokenizers roughly see it (about four characters a token). */
export function estimateTokens(text: string): number {
  return Math.ceil(text.length / 4);
}

export interface CostEstimate {
  tokensIn: number;
  tokensOut: number;
  usd: number;
}

/** The cost of sending this exact prompt, with a typical answer. */
export function estimatePromptCost(model: Price, ...texts: string[]): CostEstimate {
  const tokensIn = texts.reduce((n, t) => n + estimateTokens(t), 0);
  return { tokensIn, tokensOut: TYPICAL_OUTPUT_TOKENS, usd: costUsd(model, tokensIn, TYPICAL_OUTPUT_TOKENS) };
}

/** What a run on this model costs for a small and a large prompt, before the prompt is known. */
export function estimateRange(model: Pick<ModelInfo, keyof Price>): { lowUsd: number; highUsd: number } {
  return {
    lowUsd: costUsd(model, TYPICAL_PROMPT_TOKENS.low, TYPICAL_OUTPUT_TOKENS),
    highUsd: costUsd(model, TYPICAL_PROMPT_TOKENS.high, TYPICAL_OUTPUT_TOKENS),
  };
}

/**
 * The reproduction-test request step 4 sends once per run, before the fix, when the repository's
 * tests run: its prompt is bounded (the issue, three files cut short, one example test), so is its answer.
 */
export const REPRODUCTION_PROMPT_TOKENS = { low: 1_500, high: 6_000 } as const;
export const REPRODUCTION_OUTPUT_TOKENS = 2_048;

/**
 * A run's range before its prompt is known: `candidates` answer requests, and at the high end the
 * reproduction-test request at its largest (`reproductionUsd`; not sent when no test can run).
 */
export function runEstimateRange(
  model: Pick<ModelInfo, keyof Price>,
  candidates: number,
): { lowUsd: number; highUsd: number; reproductionUsd: number } {
  const answer = estimateRange(model);
  const reproductionUsd = costUsd(model, REPRODUCTION_PROMPT_TOKENS.high, REPRODUCTION_OUTPUT_TOKENS);
  return {
    lowUsd: answer.lowUsd * candidates,
    highUsd: answer.highUsd * candidates + reproductionUsd,
    reproductionUsd,
  };
}

/**
 * An Investigate run's range before it starts: a short loop of small turns at the low end, every
 * turn of `maxTurns` at a large conversation at the high end, per candidate (plus the reproduction request).
 */
export function agentEstimateRange(
  model: Pick<ModelInfo, keyof Price>,
  candidates: number,
  maxTurns: number,
): { lowUsd: number; highUsd: number } {
  const turn = (tokens: number) => costUsd(model, tokens, AGENT_TURN_OUTPUT_TOKENS);
  const reproductionUsd = costUsd(model, REPRODUCTION_PROMPT_TOKENS.high, REPRODUCTION_OUTPUT_TOKENS);
  return {
    lowUsd: turn(AGENT_TURN_PROMPT_TOKENS.low) * Math.min(AGENT_TYPICAL_TURNS.low, maxTurns) * candidates,
    highUsd: turn(AGENT_TURN_PROMPT_TOKENS.high) * maxTurns * candidates + reproductionUsd,
  };
}
