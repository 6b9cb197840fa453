import { describe, expect, it } from "vitest";
import type { Issue, PullRequest } from "../../api/types";
import { successRate } from "./success-rate";

const issue = (status: Issue["status"]) => ({ status }) as Issue;
const pr = (status: PullRequest["status"]) => ({ status }) as PullRequest;

describe("successRate", () => {
  it("is open or merged pull requests over completed solutions", () => {
    const r = successRate(
      [issue("solved"), issue("pr_created"), issue("pr_created"), issue("open"), issue("failed")],
      [pr("open"), pr("merged"), pr("closed")],
    );
    expect(r).toEqual({ percent: 67, landed: 2, completed: 3 });
  });

  it("has no figure before any solution completed", () => {
    expect(successRate([issue("open")], []).percent).toBeNull();
  });
});
