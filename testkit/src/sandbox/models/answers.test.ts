import { describe, expect, it } from "vitest";
import { repairFiles, SEED_REPOS, SEEDED_FIXES } from "../github/seed";
import { seededSolution } from "./answers";

describe("scripted answers", () => {
  it("answer every seeded open issue, recognised by the issue's own title, with its known fix", () => {
    for (const fix of SEEDED_FIXES) {
      const repo = SEED_REPOS.find((r) => `${r.owner}/${r.name}` === fix.repo);
      const title = repo?.issues[fix.issueNumber - 1]?.title ?? "";
      expect(title).not.toBe("");
      const answer = seededSolution(SEEDED_FIXES, `Repository: ${fix.repo}\nIssue title: ${title}\n`);
      const first = fix.firstAttempt ?? fix;
      expect(answer?.files).toEqual(first.files.map((f) => ({ edits: [], ...f })));
      expect(answer?.analysis).toBe(first.analysis);
    }
  });

  it("answer the repair round, whose prompt carries the failing tests, with the known fix made on the first attempt's files", () => {
    const scripted = SEEDED_FIXES.filter((f) => f.firstAttempt);
    expect(scripted.length).toBeGreaterThan(0);
    for (const fix of scripted) {
      const title =
        SEED_REPOS.find((r) => `${r.owner}/${r.name}` === fix.repo)?.issues[fix.issueNumber - 1]?.title ?? "";
      const prompt = `Repository: ${fix.repo}\nIssue title: ${title}\n`;
      expect(seededSolution(SEEDED_FIXES, prompt)?.files).not.toEqual(
        seededSolution(SEEDED_FIXES, `${prompt}\nThese failing tests broke:\nnot ok 2 - x\n`)?.files,
      );
      const repair = seededSolution(SEEDED_FIXES, `${prompt}\nFailing tests: x\nnot ok 2 - x\n`);
      expect(repair?.analysis).toBe(fix.analysis);
      expect(repair?.files).toEqual(repairFiles(fix).map((f) => ({ edits: [], ...f })));
    }
  });

  it("answer mixed candidates for a fix with a scripted first attempt: candidate 1 regresses, candidate 2 is the fix", () => {
    for (const fix of SEEDED_FIXES.filter((f) => f.firstAttempt)) {
      const title =
        SEED_REPOS.find((r) => `${r.owner}/${r.name}` === fix.repo)?.issues[fix.issueNumber - 1]?.title ?? "";
      const prompt = (k: number) => `Repository: ${fix.repo}\nIssue title: ${title}\n\nCandidate ${k} of 2: …`;
      expect(seededSolution(SEEDED_FIXES, prompt(1))?.files).toEqual(
        fix.firstAttempt?.files.map((f) => ({ edits: [], ...f })),
      );
      expect(seededSolution(SEEDED_FIXES, prompt(2))?.files).toEqual(fix.files.map((f) => ({ edits: [], ...f })));
    }
  });
});
