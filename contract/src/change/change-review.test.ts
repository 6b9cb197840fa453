import { describe, expect, it } from "vitest";
import {
  assessChange,
  INCLUDE_REPRODUCTION_SUGGESTION,
  NO_TEST_SUGGESTION,
  suggestionsWithEvidence,
} from "./assess-change";
import { complexityOfChange } from "./change-complexity";

const oneLine = {
  filename: "src/todos.js",
  action: "modify" as const,
  originalContent: "const a = 1;\nconst b = 2;\n",
  content: "const a = 1;\nconst b = 3;\n",
};

describe("what the review page says of a change, once its evidence is known", () => {
  it("drops 'the change has no test' when a test failed before the change and passes after it", () => {
    const { validation } = assessChange({ files: [oneLine], existingPaths: null });
    expect(validation.suggestions).toContain(NO_TEST_SUGGESTION);
    const told = suggestionsWithEvidence(validation.suggestions, {
      fixed: ["parses dates"],
      reproductionPasses: false,
    });
    expect(told).not.toContain(NO_TEST_SUGGESTION);
    expect(told.join("\n")).not.toMatch(/no test/i);
  });

  it("offers the kept reproduction test instead of asking for one, and keeps the line without evidence", () => {
    const s = [NO_TEST_SUGGESTION, "Review the flagged files carefully before approving"];
    expect(suggestionsWithEvidence(s, { fixed: [], reproductionPasses: true })).toEqual([
      INCLUDE_REPRODUCTION_SUGGESTION,
      "Review the flagged files carefully before approving",
    ]);
    expect(suggestionsWithEvidence(s, { fixed: [], reproductionPasses: false })).toEqual(s);
  });

  it("calls a one-line fix simple, whatever the issue text suggested, and never raises the estimate", () => {
    const one = { filesChanged: 1, linesAdded: 1, linesRemoved: 1 };
    expect(complexityOfChange("complex", one)).toBe("simple");
    expect(complexityOfChange("medium", one)).toBe("simple");
    expect(complexityOfChange("complex", { filesChanged: 2, linesAdded: 30, linesRemoved: 10 })).toBe("medium");
    expect(complexityOfChange("complex", { filesChanged: 6, linesAdded: 300, linesRemoved: 40 })).toBe("complex");
    expect(complexityOfChange("simple", { filesChanged: 6, linesAdded: 300, linesRemoved: 40 })).toBe("simple");
    // One file, but eleven lines: no longer "simple" by size, so the estimate stands up to medium.
    expect(complexityOfChange("complex", { filesChanged: 1, linesAdded: 11, linesRemoved: 0 })).toBe("medium");
  });
});
