import { describe, expect, it } from "vitest";
import type { FileChange } from "@fixloop/contract";
import { prErrors } from "../../../pull-requests/pull-requests.errors";
import { validating, type ValidatingInput } from "./validating";

const LIMITS = { maxFiles: 3, maxChangedLines: 1000, maxBytes: 100_000 };
const PATHS = ["README.md", "docs/guide.md", "docs/link.md", "src/index.ts", "src/lib/util.ts", "shared"];
const create = (filename: string, content = "x\n"): FileChange => ({
  filename,
  action: "create",
  originalContent: "",
  content,
});
const modify = (filename: string): FileChange => ({
  filename,
  action: "modify",
  originalContent: "old\n",
  content: "new\n",
});
const input = (files: FileChange[]): ValidatingInput => ({
  files,
  existingPaths: PATHS,
  testsNear: {},
  unappliedEdits: 0,
  base: { links: ["docs/link.md", "shared"], limits: LIMITS },
});

describe("step 5 refuses what the pull-request job would refuse, with the job's reason", () => {
  const cases: [string, FileChange[], { path: string; reason: string }][] = [
    [
      "a write to a symbolic link",
      [modify("docs/link.md")],
      { path: "docs/link.md", reason: prErrors.symlink("docs/link.md").detail },
    ],
    [
      "a write through a linked directory",
      [create("shared/x.ts")],
      { path: "shared/x.ts", reason: prErrors.symlink("shared").detail },
    ],
    [
      "a file replacing a directory",
      [create("src/lib")],
      { path: "src/lib", reason: prErrors.denied("src/lib", "A file may not replace a directory").detail },
    ],
    [
      "a directory replacing a file",
      [create("README.md/notes.md")],
      {
        path: "README.md/notes.md",
        reason: prErrors.denied("README.md/notes.md", "README.md is a file; a directory may not replace it").detail,
      },
    ],
    [
      "more files than a pull request may hold",
      [create("a.md"), create("b.md"), create("c.md"), create("d.md")],
      { path: "a.md", reason: "The change touches 4 files; at most 3 are allowed in one pull request" },
    ],
  ];
  for (const [what, files, refusal] of cases) {
    it(`blocks ${what} and rates it critical`, async () => {
      const { output, detail } = await validating(input(files));
      expect(output.blocked).toEqual([refusal]);
      expect(output.validation.riskLevel).toBe("critical");
      expect(detail.warnings).toContain(`Blocked: ${refusal.path}: ${refusal.reason}`);
    });
  }

  it("judges the contents as they will be stored: a NUL byte is binary content there", async () => {
    const { output } = await validating(input([create("docs/nul.md", "a\u0000b\n")]));
    expect(output.blocked).toEqual([
      { path: "docs/nul.md", reason: "docs/nul.md: binary content is refused unless the file was binary before" },
    ]);
  });

  it("leaves an ordinary change low risk and unblocked", async () => {
    const { output } = await validating(input([modify("docs/guide.md"), create("docs/new.md")]));
    expect(output.blocked).toEqual([]);
    expect(output.validation.riskLevel).not.toBe("critical");
  });
});
