import { describe, expect, it } from "vitest";
import { TestOutputParser } from "./parse";

const parse = (text: string) => {
  const p = new TestOutputParser();
  // fed in odd-sized chunks, as a pipe delivers them
  for (let i = 0; i < text.length; i += 7) p.feed(text.slice(i, i + 7));
  return p.finish();
};

describe("test output parsers", () => {
  it("reads node's TAP reporter, counting leaf tests but not suites", () => {
    const r = parse(`TAP version 13
# Subtest: rules
    # Subtest: reports tabs
    ok 1 - reports tabs
    # Subtest: accepts clean lines
    not ok 2 - accepts clean lines
      ---
    1..2
ok 1 - rules
# Subtest: top level
ok 2 - top level
# Subtest: later
ok 3 - later # SKIP
1..3
# tests 4
# pass 2
# fail 1
`);
    expect(r.results).toEqual({
      "rules > reports tabs": "pass",
      "rules > accepts clean lines": "fail",
      "top level": "pass",
      later: "skip",
    });
    expect(r.counts).toEqual({ passed: 2, failed: 1, errored: 0 });
  });

  it("reads node's spec reporter and ignores the repeated failure list", () => {
    const r = parse(`▶ rules
  ✔ reports tabs (0.5ms)
  ✖ accepts clean lines (1.2ms)
▶ rules (2ms)
✔ top level (0.1ms)
ℹ tests 3
✖ failing tests:

✖ accepts clean lines (1.2ms)
`);
    expect(r.results).toEqual({
      "rules > reports tabs": "pass",
      "rules > accepts clean lines": "fail",
      "top level": "pass",
    });
  });

  it("reads python unittest -v, including a result printed on a later line", () => {
    const r = parse(`test_a (tests.test_units.UnitsTest.test_a) ... ok
test_b (tests.test_units.UnitsTest.test_b) ... FAIL
test_c (tests.test_units.UnitsTest.test_c) ... some print
ERROR
test_d (tests.test_units.UnitsTest) ... skipped 'later'
----------------------------------------------------------------------
Ran 4 tests in 0.001s

FAILED (failures=1, errors=1, skipped=1)
`);
    expect(r.results).toEqual({
      "tests.test_units.UnitsTest.test_a": "pass",
      "tests.test_units.UnitsTest.test_b": "fail",
      "tests.test_units.UnitsTest.test_c": "error",
      "tests.test_units.UnitsTest.test_d": "skip",
    });
    expect(r.counts).toEqual({ passed: 1, failed: 1, errored: 1 });
  });

  it("reads pytest -rA, go test -json and cargo test", () => {
    expect(
      parse(
        "PASSED tests/test_x.py::test_a\nFAILED tests/test_x.py::test_b - AssertionError\n===== 1 failed, 1 passed in 0.12s =====\n",
      ).results,
    ).toEqual({ "tests/test_x.py::test_a": "pass", "tests/test_x.py::test_b": "fail" });
    expect(
      parse(
        '{"Action":"pass","Package":"ex/a","Test":"TestA"}\n{"Action":"fail","Package":"ex/a","Test":"TestB"}\n{"Action":"fail","Package":"ex/b"}\n',
      ).results,
    ).toEqual({ "ex/a/TestA": "pass", "ex/a/TestB": "fail", "ex/b (build)": "error" });
    expect(parse("test util::adds ... ok\ntest util::subs ... FAILED\ntest util::later ... ignored\n").results).toEqual(
      { "util::adds": "pass", "util::subs": "fail", "util::later": "skip" },
    );
  });

  it("reads jest's JSON and vitest's summary; unknown output gives no runner", () => {
    const json = JSON.stringify({
      numTotalTests: 2,
      testResults: [
        {
          name: "/w/a.test.js",
          assertionResults: [
            { fullName: "adds", status: "passed" },
            { fullName: "subs", status: "failed" },
          ],
        },
      ],
    });
    expect(parse(`${json}\n`).results).toEqual({ "/w/a.test.js > adds": "pass", "/w/a.test.js > subs": "fail" });
    expect(parse(" ✓ test/a.test.ts (3 tests) 5ms\n      Tests  1 failed | 3 passed (4)\n").counts).toEqual({
      passed: 3,
      failed: 1,
      errored: 0,
    });
    expect(parse("building...\nall good\n").runners).toEqual([]);
  });
});
