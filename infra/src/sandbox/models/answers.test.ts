import { describe, expect, it } from "vitest";
import { SEED_REPOS, SEEDED_FIXES } from "../github/seed";
import { seededSolution } from "./answers";

describe("scripted answers", () => {
  it("answer every seeded open issue, recognised by the issue's own title, with its known fix", () => {
    for (const fix of SEEDED_FIXES) {
      const repo = SEED_REPOS.find((r) => `${r.owner}/${r.name}` === fix.repo);
      const title = repo?.issues[fix.issueNumber - 1]?.title ?? "";
      expect(title).not.toBe("");
      const answer = seededSolution(SEEDED_FIXES, `Repository: ${fix.repo}\nIssue title: ${title}\n`);
      expect(answer?.files.map((f) => f.filename)).toEqual(fix.files.map((f) => f.filename));
      expect(answer?.analysis).toBe(fix.analysis);
    }
  });
});
