import { describe, expect, it } from "vitest";
import { fixRank } from "@fixloop/contract";
import { closingReferences } from "./backtest.github";

describe("closing references of a merged pull request", () => {
  it("reads GitHub's closing keywords for this repository's issues only", () => {
    const body = [
      "Fixes #12, closes: #13 and Resolved octocat/app#14.",
      "Refs #15; see #16. fixes hubot/other#17",
      "resolves https://github.com/octocat/app/issues/18 and fix https://github.com/hubot/other/issues/19",
    ].join("\n");
    expect(closingReferences("octocat/app", body)).toEqual([12, 13, 14, 18]);
    expect(closingReferences("Octocat/App", "FIXES #3")).toEqual([3]);
    expect(closingReferences("octocat/app", "prefix#4 fixes#5 fixed #x")).toEqual([]);
  });

  it("ranks the best fixing file among the localized files, 1-based", () => {
    expect(fixRank(["a.go", "b.go", "c.go"], ["c.go", "b.go"])).toBe(2);
    expect(fixRank(["a.go"], ["z.go"])).toBeNull();
  });
});
