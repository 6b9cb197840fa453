import { describe, expect, it } from "vitest";
import type { PullRequest } from "../../api/types";
import { successRate } from "./success-rate";

const pr = (status: PullRequest["status"]) => ({ status }) as PullRequest;

describe("successRate", () => {
  it("is open or merged pull requests over completed solutions", () => {
    const r = successRate(3, [pr("open"), pr("merged"), pr("closed")]);
    expect(r).toEqual({ percent: 67, landed: 2, completed: 3 });
  });

  it("has no figure before any solution completed", () => {
    expect(successRate(0, [pr("open")]).percent).toBeNull();
  });
});
