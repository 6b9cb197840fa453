import { describe, expect, it } from "vitest";
import { testFor } from "./answers.tests";

const RULE = {
  path: "src/rules/line-length.js",
  text: 'export const name = "line-length";\n\nexport function check(lines, options = {}) {\n  return [];\n}\n',
};
const RULE_TEST = {
  path: "test/line-length.test.js",
  text: 'import assert from "node:assert/strict";\nimport { test } from "node:test";\nimport { check } from "../src/rules/line-length.js";\n\ntest("reports long lines", () => {\n  assert.equal(check([]).length, 0);\n});\n',
};
const TITLE = "line-length flags lines that are exactly at the limit";

describe("the model stand-in's test for a change, in the repository's layout", () => {
  it("adds one test to the shown test file that imports the changed module", () => {
    const t = testFor(RULE, [RULE, RULE_TEST], "test/ (4 files)", TITLE);
    expect(t).toMatchObject({ filename: "test/line-length.test.js", action: "modify" });
    expect(t?.content?.startsWith(RULE_TEST.text)).toBe(true);
    expect(t?.content).toContain(
      `test("regression: ${TITLE}", () => {\n  assert.equal(typeof check, "function");\n});`,
    );
  });

  it("writes a new file beside a shown test, with its naming, framework and import style (extension kept)", () => {
    const other = { path: "src/rules/trailing-spaces.js", text: "export function check(lines) {\n  return [];\n}\n" };
    const t = testFor(other, [other, RULE_TEST], "test/ (4 files)", TITLE);
    expect(t).toMatchObject({ filename: "test/trailing-spaces.test.js", action: "create" });
    expect(t?.content).toBe(
      `import assert from "node:assert/strict";\nimport { test } from "node:test";\nimport { check } from "../src/rules/trailing-spaces.js";\n\ntest(${JSON.stringify(`regression: ${TITLE}`)}, () => {\n  assert.equal(typeof check, "function");\n});\n`,
    );
  });

  it("follows vitest-style tests that import without an extension", () => {
    const src = { path: "src/due.ts", text: "export function isOverdue(due: string): boolean {\n  return false;\n}\n" };
    const sibling = {
      path: "src/list.spec.ts",
      text: 'import { describe, expect, it } from "vitest";\nimport { overdue } from "./list";\n\nit("lists", () => {\n  expect(overdue([])).toEqual([]);\n});\n',
    };
    const t = testFor(src, [src, sibling], "src/ (3 files)", "Due today");
    expect(t?.filename).toBe("src/due.spec.ts");
    expect(t?.content).toContain('import { isOverdue } from "./due";');
    expect(t?.content).toContain('it("regression: Due today", () => {\n  expect(typeof isOverdue).toBe("function");');
  });

  it("puts a TypeScript test in the map's test directory, importing the source by its .js name", () => {
    const src = { path: "src/due.ts", text: "export function isOverdue(due: string): boolean {\n  return false;\n}\n" };
    const t = testFor(src, [src], "src/ (6 files)\nscripts/ (2 files)\ntest/ (3 files)", "Due today");
    expect(t).toMatchObject({ filename: "test/due.test.js", action: "create" });
    expect(t?.content).toContain('import { isOverdue } from "../src/due.js";');
  });

  it("writes Python tests in tests/ importing the package module, and Go tests in the file's package", () => {
    const py = { path: "weather/units.py", text: "def kmh_to_mph(v):\n    return v\n" };
    const pt = testFor(py, [py], "weather/ (5 files)\ntests/ (4 files)", 'A "quoted" title');
    expect(pt?.filename).toBe("tests/test_units.py");
    expect(pt?.content).toContain("import weather.units as subject");
    expect(pt?.content).toContain('"""A \'quoted\' title"""');
    const go = { path: "shortener/code.go", text: 'package shortener\n\nfunc Code() string { return "" }\n' };
    const gt = testFor(go, [go], "shortener/ (6 files)", "t");
    expect(gt?.filename).toBe("shortener/code_regression_test.go");
    expect(gt?.content).toMatch(/^package shortener\n/);
    expect(gt?.content).toContain("func TestRegressionCode(t *testing.T)");
  });

  it("keeps a hostile title inside the test name's string", () => {
    const t = testFor(RULE, [RULE, RULE_TEST], "", 'x"); process.exit(1); ("');
    expect(t?.content).toContain(JSON.stringify('regression: x"); process.exit(1); ("'));
  });
});
