import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { SANDBOX_MODEL_API_KEY, startModelSandbox, type ModelSandbox } from "@fixloop/testkit/sandbox";
import { findModel } from "../../../models";
import { applyGeneratedFiles } from "./apply-edits";
import { generating, GenerationError } from "./generating";
import type { PromptInput } from "./prompt";

// A model may edit a file step 3 did not show it (it knows the project): the edit applies when its
// search text matches the repository's file exactly; nothing else about an unseen file is taken.
let sandbox: ModelSandbox;
beforeAll(async () => {
  sandbox = await startModelSandbox();
});
afterAll(() => sandbox.stop());
beforeEach(() => sandbox.control.reset());

const SHOWN = "def shown():\n    return 1\n";
const UNSEEN = "def helper(x):\n    return x + 1\n\n\ndef other():\n    return 'unchanged'\n";
const REPO: Record<string, string> = { "pkg/shown.py": SHOWN, "pkg/helper.py": UNSEEN };

const prompt: PromptInput = {
  repository: "octocat/unseen",
  issueNumber: 7,
  issueTitle: "helper is off by one",
  issueBody: "helper(1) should be 1",
  labels: [],
  classification: { type: "bug", complexity: "simple" },
  files: [{ path: "pkg/shown.py", content: SHOWN, reasons: ["mentioned"] }],
  repoMap: "pkg/",
};

const reads: string[] = [];
const run = () => {
  const models = { openai: { apiKey: SANDBOX_MODEL_API_KEY, baseURL: `${sandbox.url}/openai/v1` } };
  const model = findModel(models, "gpt-4.1");
  if (!model) throw new Error("gpt-4.1 is not configured");
  return generating({
    models,
    model,
    prompt,
    signal: new AbortController().signal,
    readUnseen: async (p) => {
      reads.push(p);
      return REPO[p] ?? null;
    },
  });
};

const answer = (files: Parameters<typeof applyGeneratedFiles>[0]) => ({
  analysis: "helper adds one",
  proposedSolution: "return x",
  confidence: 70,
  files,
});
const FIX = { search: "    return x + 1\n", replace: "    return x\n" };

describe("edits to a file the model was not shown", () => {
  it("applies when the search text matches the repository's file, and says the file was not shown", async () => {
    reads.length = 0;
    sandbox.control.respondWith(() => true, answer([{ filename: "pkg/helper.py", action: "modify", edits: [FIX] }]));
    const r = await run();
    expect(reads).toEqual(["pkg/helper.py"]);
    const change = r.output.filesChanged.find((c) => c.filename === "pkg/helper.py");
    expect(change).toMatchObject({ action: "modify", originalContent: UNSEEN });
    expect(change?.content).toBe(UNSEEN.replace("return x + 1", "return x"));
    expect(r.detail.warnings.join("\n")).toContain("pkg/helper.py, which step 3 did not show the model");
    expect(sandbox.control.requests).toHaveLength(1);
  });

  it("shows the file in the repair round when the search text missed, and applies the repaired edit", async () => {
    sandbox.control.respondWith(
      (p) => !p.includes("could not be applied"),
      answer([{ filename: "pkg/helper.py", action: "modify", edits: [{ search: "return x+1", replace: "return x" }] }]),
    );
    sandbox.control.respondWith(
      (p) => p.includes("could not be applied"),
      answer([{ filename: "pkg/helper.py", action: "modify", edits: [FIX] }]),
    );
    const r = await run();
    const repair = sandbox.control.requests[1]?.prompt ?? "";
    expect(repair).toContain("### File: pkg/helper.py (not among the files above)");
    expect(repair).toContain("2 |     return x + 1");
    expect(r.output.editRepair).toBe(true);
    expect(r.output.filesChanged.map((c) => c.filename)).toEqual(["pkg/helper.py"]);
  });

  it("never rewrites, deletes or invents an unseen file: only matching edits to files of the tree apply", async () => {
    sandbox.control.respondWith(
      () => true,
      answer([
        { filename: "pkg/helper.py", action: "modify", content: "import os\nos.system('curl evil')\n", edits: [] },
        { filename: "pkg/other.py", action: "delete", edits: [] },
        { filename: "pkg/missing.py", action: "modify", edits: [FIX] },
      ]),
    );
    const err = await run().then(
      () => null,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(GenerationError);
    const message = (err as GenerationError).message;
    expect(message).toContain("pkg/helper.py was not shown; change it with search/replace edits");
    expect(message).toContain("pkg/other.py is not among the files the model was shown");
    expect(message).toContain("pkg/missing.py is not among the files the model was shown");
  });

  it("refuses deleting an unseen file even when the repository has it", () => {
    const r = applyGeneratedFiles(
      [{ filename: "pkg/helper.py", action: "delete", edits: [] }],
      new Map([["pkg/helper.py", UNSEEN]]),
      new Set(),
      new Set(["pkg/helper.py"]),
    );
    expect(r.changes).toEqual([]);
    expect(r.failures[0]?.reason).toBe("pkg/helper.py is not among the files the model was shown");
  });
});
