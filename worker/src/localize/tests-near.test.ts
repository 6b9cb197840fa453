import { describe, expect, it } from "vitest";
import { testFilesNamedAfter } from "./tests-near";

const TREE = [
  "sympy/solvers/polysys.py",
  "sympy/solvers/tests/test_polysys.py",
  "sympy/polys/tests/test_polysys.py",
  "sympy/solvers/tests/test_solvers.py",
  "src/due.ts",
  "src/due.test.ts",
  "test/due.spec.ts",
  "pkg/server/handler_test.go",
  "pkg/server/handler.go",
  "README.md",
];

describe("tests named after a file the ranking did not read", () => {
  it("finds the test files named after it, nearest first", () => {
    expect(testFilesNamedAfter("sympy/solvers/polysys.py", TREE)).toEqual([
      "sympy/solvers/tests/test_polysys.py",
      "sympy/polys/tests/test_polysys.py",
    ]);
    expect(testFilesNamedAfter("src/due.ts", TREE)).toEqual(["src/due.test.ts", "test/due.spec.ts"]);
    expect(testFilesNamedAfter("pkg/server/handler.go", TREE)).toEqual(["pkg/server/handler_test.go"]);
  });

  it("finds nothing for a test file itself, a file without tests, or beyond the limit", () => {
    expect(testFilesNamedAfter("sympy/solvers/tests/test_solvers.py", TREE)).toEqual([]);
    expect(testFilesNamedAfter("README.md", TREE)).toEqual([]);
    expect(testFilesNamedAfter("sympy/solvers/polysys.py", TREE, 1)).toHaveLength(1);
  });
});
