import { describe, expect, it } from "vitest";
import type { ToolSpec } from "@fixloop/contract";
import { answeredCost, failedCost, neverSent, tokenCount, worstCase } from "./meter";
import { ModelError, TransientFailure } from "./models.errors";
import { type ProviderRequest, SOLUTION_TOOL } from "./provider";

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

  it("counts the tool's schema, the solution tool's included: it is sent and billed with every request", () => {
    const solution = worstCase(price, request());
    expect(solution.tokensIn).toBeGreaterThan(JSON.stringify(SOLUTION_TOOL).length);
    const other: ToolSpec = {
      name: "pick",
      description: "d",
      schema: { type: "object", required: ["p"], properties: { p: { type: "string" } } },
    };
    expect(worstCase(price, request({ tool: other })).tokensIn).toBe(
      solution.tokensIn - JSON.stringify(SOLUTION_TOOL).length + JSON.stringify(other).length,
    );
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

describe("the usage a provider reports, which is its word and not ours", () => {
  const worst = { tokensIn: 100, tokensOut: 50, usd: 0.2 };

  it("reads a count only when it is a finite, non-negative number", () => {
    expect(tokenCount(12)).toBe(12);
    expect(tokenCount(12.6)).toBe(13);
    expect(tokenCount(0)).toBe(0);
    for (const bad of [-1, Number.NaN, Number.POSITIVE_INFINITY, "12", null, undefined, {}, [3], true])
      expect(tokenCount(bad)).toBeUndefined();
  });

  it("prices usage that fits the worst case, confirmed", () => {
    expect(answeredCost(price, { tokensIn: 100, tokensOut: 50 }, worst)).toEqual({
      tokensIn: 100,
      tokensOut: 50,
      usd: (100 * 1000 + 50 * 2000) / 1e6,
      confirmed: true,
      note: "",
    });
  });

  it("records the worst case, unconfirmed, for usage that is missing, malformed or more than the request can hold", () => {
    const missing = answeredCost(price, { tokensIn: 0, tokensOut: 0 }, worst);
    expect(missing).toEqual({ ...worst, confirmed: false, note: "no usage reported, worst case recorded" });
    // What an SDK hands over unchecked from a hostile endpoint's JSON.
    const junk = answeredCost(price, { tokensIn: "9e9" as unknown as number, tokensOut: -5 }, worst);
    expect(junk).toEqual(missing);
    expect(answeredCost(price, { tokensIn: Number.NaN, tokensOut: 10 }, worst)).toMatchObject({
      tokensIn: 0,
      tokensOut: 10,
      confirmed: true,
    });
    for (const over of [
      { tokensIn: 101, tokensOut: 1 },
      { tokensIn: 1, tokensOut: 51 },
      { tokensIn: 3e9, tokensOut: 3e9 },
    ]) {
      const r = answeredCost(price, over, worst);
      expect(r).toMatchObject({ ...worst, confirmed: false });
      expect(r.note).toBe(
        `reported usage (${over.tokensIn} in, ${over.tokensOut} out) exceeds what the request can hold, worst case recorded`,
      );
    }
  });

  it("holds an error answer's reported usage to the same bound", () => {
    const bad = new ModelError("model.bad_request", "400");
    bad.answered = true;
    bad.tokensIn = 1e12;
    expect(failedCost(price, bad, worst)).toMatchObject({
      ...worst,
      confirmed: false,
      outcome: expect.stringMatching(/^model\.bad_request: reported usage \(1000000000000 in, 0 out\) exceeds/),
    });
  });
});
