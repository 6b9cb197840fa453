import { describe, expect, it } from "vitest";
import type { BodyInput } from "./pull-requests.body";
import { updateEvidence } from "./pull-requests.evidence";

const input: BodyInput = {
  issueNumber: 3,
  issueTitle: "Pagination skips an item",
  issueRepo: "octocat/todo-api",
  baseRepo: "octocat/todo-api",
  analysis: "a",
  proposedSolution: "p",
  model: "m",
  confidence: 80,
  files: [{ filename: "src/paginate.ts", action: "modify", originalContent: "a\n", content: "b\n" }],
  metadata: { refinementCount: 2 },
  reviewer: "octocat",
};
const NOTE = "- Revision 3 pushed as [abc1234](https://x/commits/abc1234)";

describe("updating a pull request body's evidence for a pushed revision", () => {
  it("rewrites only the validation section, keeping a maintainer's edits elsewhere and the disclosure", () => {
    const body =
      "## Summary\n\nEdited by a maintainer.\n\n## Validation\n\n- Tests: **old**\n- Reviewed and approved by @octocat\n\n## Files changed\n\n- x\n\nFixes #3\n\n---\n**AI assistance:** generated.\n";
    const out = updateEvidence(body, input, NOTE);
    expect(out).toContain("Edited by a maintainer.");
    expect(out).not.toContain("- Tests: **old**");
    expect(out).toContain(`## Validation\n\n${NOTE}\n- Risk:`);
    expect(out).toContain("after 2 refinements");
    expect(out).toMatch(/## Files changed\n\n- x\n\nFixes #3\n\n---\n\*\*AI assistance:\*\* generated\./);
  });

  it("fills a template's testing heading, or adds a Validation section before the disclosure when there is none", () => {
    const templated = updateEvidence("### How was this tested?\n\nold words\n### Related\n\nFixes #3\n", input, NOTE);
    expect(templated).toMatch(/### How was this tested\?\n\n- Revision 3 pushed[\s\S]*\n### Related\n\nFixes #3/);
    expect(templated).not.toContain("old words");
    const bare = updateEvidence("Short body.\n\n---\n**AI assistance:** generated.", input, NOTE);
    expect(bare).toMatch(/^Short body\.\n\n## Validation\n\n- Revision 3 pushed[\s\S]*\n---\n\*\*AI assistance/);
  });
});
