import { costUsd, type Price } from "@fixloop/contract";
import { ModelError, TransientFailure } from "./models.errors";
import { type ProviderRequest, toolOf } from "./provider";

/** A request's cost figures: tokens and USD. */
export interface Spend {
  tokensIn: number;
  tokensOut: number;
  usd: number;
}

/** What became of a sent request. `confirmed: false`: the provider told nothing, so the worst case stands. */
export interface Settlement extends Spend {
  outcome: string;
  confirmed: boolean;
}

/** One reserved request: settle it once its answer or error arrived, or release it if it was never sent. */
export interface Hold {
  settle(s: Settlement): Promise<void>;
  release(outcome: string): Promise<void>;
}

/**
 * Where model requests are reserved before they are sent. `reserve` throws (a cap error) when the
 * worst case does not fit; then the request must not be sent.
 */
export interface RequestMeter {
  reserve(r: { purpose: string; modelId: string; attempt: number; worst: Spend }): Promise<Hold>;
}

/** Tokens a message's framing may add (role markers, tool-call wrapping), per message. */
const FRAMING_TOKENS = 64;

/**
 * An upper bound of the tokens a text can be: byte-level tokenizers (OpenAI, Llama 3, Claude)
 * never make a token of less than one UTF-8 byte. Conservative on purpose (about four times the
 * typical count for English and code).
 */
export const maxTokens = (text: string): number => Buffer.byteLength(text, "utf8");

/** The most a chat request can cost: every byte sent as a token, and the whole output allowance used. */
export function worstCase(model: Price, req: ProviderRequest): Spend {
  // The tool's schema is sent with every request (the solution tool's too) and is billed as input.
  const parts = [req.system, req.prompt, JSON.stringify(toolOf(req))];
  if (req.repair) {
    const args = req.repair.call ? JSON.stringify(req.repair.call.args) : "";
    parts.push(req.repair.text, args, req.repair.error);
  }
  const tokensIn = parts.reduce((n, t) => n + maxTokens(t), 0) + FRAMING_TOKENS * (req.repair ? 5 : 3);
  const tokensOut = req.maxOutputTokens;
  return { tokensIn, tokensOut, usd: costUsd(model, tokensIn, tokensOut) };
}

/**
 * A token count read from a provider's usage block, which is the provider's word, not ours: a
 * finite, non-negative number (rounded), else undefined (as if none was reported).
 */
export function tokenCount(v: unknown): number | undefined {
  return typeof v === "number" && Number.isFinite(v) && v >= 0 ? Math.round(v) : undefined;
}

/**
 * What an answered request is recorded at. The reported usage, priced, when there is some and it
 * fits the worst case. The worst case otherwise, unconfirmed: with no usage, the tokens were spent
 * all the same; and a count above the worst case cannot be true (a token is at least one byte,
 * the output is capped), so it is not evidence of anything. `note` is what the ledger adds to the outcome.
 */
export function answeredCost(
  model: Price,
  reported: { tokensIn: number; tokensOut: number },
  worst: Spend,
): Spend & { confirmed: boolean; note: string } {
  const tokensIn = tokenCount(reported.tokensIn) ?? 0;
  const tokensOut = tokenCount(reported.tokensOut) ?? 0;
  if (tokensIn + tokensOut === 0) return { ...worst, confirmed: false, note: "no usage reported, worst case recorded" };
  if (tokensIn > worst.tokensIn || tokensOut > worst.tokensOut)
    return {
      ...worst,
      confirmed: false,
      note: `reported usage (${tokensIn} in, ${tokensOut} out) exceeds what the request can hold, worst case recorded`,
    };
  return { tokensIn, tokensOut, usd: costUsd(model, tokensIn, tokensOut), confirmed: true, note: "" };
}

/** Connection errors that prove the request never reached the provider. */
const NOT_SENT = new Set(["ECONNREFUSED", "ENOTFOUND", "EAI_AGAIN", "EHOSTUNREACH", "ENETUNREACH"]);

/** True when an error's cause chain shows the request never left (so it costs nothing). */
export function neverSent(err: unknown): boolean {
  let e: unknown = err;
  for (let depth = 0; e && depth < 6; depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === "string" && NOT_SENT.has(code)) return true;
    e = (e as { cause?: unknown }).cause;
  }
  return false;
}

/**
 * What a failed request cost: an error the provider answered with a status bills what it reports
 * (nothing if it reports no usage: providers do not bill refused requests); a timeout, a dropped
 * connection or a cancel after sending leaves the cost unknown, so the worst case stands.
 */
export function failedCost(model: Price, err: unknown, worst: Spend): Settlement | "not sent" {
  if (neverSent(err)) return "not sent";
  const code = err instanceof ModelError || err instanceof TransientFailure ? err.code : "error";
  const answered = (err instanceof ModelError || err instanceof TransientFailure) && err.answered;
  if (!answered) return { ...worst, outcome: `${code}: no answer, worst case recorded`, confirmed: false };
  const tokensIn = err instanceof ModelError ? err.tokensIn : 0;
  const tokensOut = err instanceof ModelError ? err.tokensOut : 0;
  if (tokensIn + tokensOut === 0) return { tokensIn: 0, tokensOut: 0, usd: 0, outcome: code, confirmed: true };
  const { note, ...cost } = answeredCost(model, { tokensIn, tokensOut }, worst);
  return { ...cost, outcome: note ? `${code}: ${note}` : code };
}
