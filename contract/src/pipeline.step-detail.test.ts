import { describe, expect, it } from "vitest";
import { stepDetailOf, type StepDetail } from "./pipeline";

describe("a stored step detail as runs carry it", () => {
  it("keeps the parts that match the contract, in order, and leaves out those that do not", () => {
    const symbol = { path: "a.ts", name: "f", kind: "function", startLine: 1, endLine: 2, reasons: ["named"] };
    const stored = {
      files: ["a.ts"],
      info: ["i"],
      warnings: [],
      score: 40,
      symbols: [symbol],
      rerank: { status: "maybe", note: "", before: [], picks: [] },
      extra: "kept out",
    } as unknown as StepDetail;
    const out = stepDetailOf(stored);
    expect(out).toEqual({ files: ["a.ts"], info: ["i"], warnings: [], score: 40, symbols: [symbol] });
    expect(Object.keys(out)).toEqual(["files", "info", "warnings", "score", "symbols"]);
  });

  it("adds nothing for parts the step did not store", () => {
    expect(stepDetailOf({ files: [], info: [], warnings: [] })).toEqual({ files: [], info: [], warnings: [] });
  });
});
