import { execFileSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Issue } from "@fixloop/db";
import { createTestRedis, testPrefix } from "@fixloop/testkit";
import { rerunTests } from "./rerun";
import type { TestsDeps } from "./run-tests";
import type { SandboxLimits } from "./sandbox";
import { bwrapRunner } from "./sandbox.bwrap";

const MiB = 1024 ** 2;
const limits: SandboxLimits = {
  timeoutMs: 20_000,
  memoryBytes: 4 * 1024 ** 3,
  processes: 128,
  fileBytes: 64 * MiB,
  outputBytes: 64 * 1024,
  totalMemoryBytes: 512 * MiB,
  tmpBytes: 16 * MiB,
  diskBytes: 64 * MiB,
};
const redis = createTestRedis();
let root: string;
let deps: TestsDeps;

beforeAll(() => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), "fixloop-rerun-"));
  deps = {
    runner: bwrapRunner(),
    backend: "bwrap",
    cache: { root: path.join(root, "workspaces"), maxBytes: 256 * MiB },
    limits,
    redis,
    prefix: testPrefix(),
    emit: () => Promise.resolve(),
  };
});
afterAll(() => {
  execFileSync("rm", ["-rf", "--one-file-system", root]);
});

/** A pytest repository (root conftest.py) whose only test fails whatever the change: running it shows at once. */
const TREE: Record<string, string> = {
  "conftest.py": "",
  "pkg/__init__.py": "",
  "pkg/mod.py": "def answer():\n    return 41\n",
  "tests/test_other.py": "def test_unrelated():\n    assert False, 'the whole suite ran'\n",
};

const input = (related: { files: string[] }) => ({
  issue: { repo_full_name: "octocat/rerun", is_imported: false } as Issue,
  commit: randomBytes(20).toString("hex"),
  files: [
    {
      filename: "pkg/mod.py",
      action: "modify" as const,
      content: "def answer():\n    return 42\n",
      originalContent: TREE["pkg/mod.py"] ?? "",
    },
  ],
  revision: 2,
  repository: undefined,
  related,
  fetch: async (dir: string) => {
    for (const [name, content] of Object.entries(TREE)) {
      fs.mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
      fs.writeFileSync(path.join(dir, name), content);
    }
  },
});

describe("re-running the tests of an edited solution", () => {
  it("runs nothing when no test relates to the edited files, as the solve did, instead of the whole suite", async () => {
    const r = await rerunTests(deps, input({ files: [] }));
    expect(r.tests.noneRelated).toBe(true);
    expect(r.tests.status).toBe("skipped");
    expect(r.tests.rerun?.revision).toBe(2);
    expect(r.tests.patched).toBeNull();
    expect(r.tests.logTail).not.toContain("the whole suite ran");
  });

  it("runs the test files the solve chose", async () => {
    const r = await rerunTests(deps, input({ files: ["tests/test_other.py"] }));
    expect(r.tests.noneRelated).toBeUndefined();
    expect(r.tests.selection?.files.map((f) => f.path)).toEqual(["tests/test_other.py"]);
    expect(r.tests.patched?.failed).toBe(1);
  });
});
