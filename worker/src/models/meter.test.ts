import { describe, expect, it } from "vitest";
import { failedCost, neverSent, worstCase } from "./meter";
import { ModelError, TransientFailure } from "./models.errors";
import type { ProviderRequest } from "./provider";

const price = { inputUsdPerMTok: 1000, outputUsdPerMTok: 2000 };
const request = (o: Partial<ProviderRequest> = {}): ProviderRequest => ({
  modelId: "m",
  system: "You fix issues.",
  prompt: "Fix the bug in src/a.js",
  maxOutputTokens: 1000,
  signal: new AbortController().signal,
  ...o,
});

describe("the worst case of a model request", () => {
  it("counts every UTF-8 byte sent as a token and the whole output allowance", () => {
    const ascii = worstCase(price, request());
    expect(ascii.tokensOut).toBe(1000);
    expect(ascii.tokensIn).toBeGreaterThanOrEqual("You fix issues.".length + "Fix the bug in src/a.js".length);
    // Text a tokenizer splits finely (CJK, emoji) still stays under the bound: one token is at least one byte.
    const wide = worstCase(price, request({ prompt: "修复这个错误🙂".repeat(100) }));
    expect(wide.tokensIn - ascii.tokensIn).toBeGreaterThan(Buffer.byteLength("修复这个错误🙂".repeat(100)) - 30);
    expect(ascii.usd).toBeCloseTo((ascii.tokensIn * 1000 + 1000 * 2000) / 1e6, 8);
  });

  it("grows with what a repair sends back: the rejected answer and the error", () => {
    const repair = request({ repair: { call: { id: "c", args: "x".repeat(5000) }, text: "", error: "bad" } });
    expect(worstCase(price, repair).tokensIn).toBeGreaterThan(worstCase(price, request()).tokensIn + 5000);
  });
});

describe("the cost of a failed request", () => {
  const worst = { tokensIn: 100, tokensOut: 50, usd: 0.2 };

  it("is what the provider reports when it answered with an error status, else nothing", () => {
    const limited = new TransientFailure("model.rate_limited", "429", undefined);
    limited.answered = true;
    expect(failedCost(price, limited, worst)).toEqual({
      tokensIn: 0,
      tokensOut: 0,
      usd: 0,
      outcome: "model.rate_limited",
      confirmed: true,
    });
    const bad = new ModelError("model.bad_request", "400");
    bad.answered = true;
    bad.tokensIn = 10;
    expect(failedCost(price, bad, worst)).toMatchObject({ tokensIn: 10, usd: 0.01, confirmed: true });
  });

  it("is the worst case, unconfirmed, when no answer came (timeout, cancel after sending)", () => {
    const timeout = new TransientFailure("model.unavailable", "timed out", undefined);
    expect(failedCost(price, timeout, worst)).toMatchObject({ ...worst, confirmed: false });
    expect(failedCost(price, new ModelError("model.cancelled", "cancelled"), worst)).toMatchObject({
      usd: 0.2,
      confirmed: false,
    });
  });

  it("is nothing when the connection was refused before anything was sent", () => {
    const refused = new TransientFailure("model.unavailable", "unreachable", undefined, {
      cause: new Error("fetch failed", { cause: Object.assign(new Error("connect"), { code: "ECONNREFUSED" }) }),
    });
    expect(neverSent(refused)).toBe(true);
    expect(failedCost(price, refused, worst)).toBe("not sent");
    expect(neverSent(new Error("socket hang up"))).toBe(false);
  });
});
