import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { patchTestFiles, relatedTests, MAX_RELATED_BYTES, selectorFor, shellPath, type Selector } from "./select";

const dirs: string[] = [];
function tree(files: Record<string, string>): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "fixloop-select-"));
  dirs.push(dir);
  for (const [p, c] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dir, p)), { recursive: true });
    fs.writeFileSync(path.join(dir, p), c);
  }
  return dir;
}
afterAll(() => dirs.forEach((d) => fs.rmSync(d, { recursive: true, force: true })));

/** The words a shell makes of `command`: each printed on its own line by printf. */
const words = (command: string) =>
  execFileSync("sh", ["-c", `set -- ${command.replace(/^\S+( -m \S+)?/, "")}; printf '%s\\n' "$@"`], {
    encoding: "utf8",
  })
    .split("\n")
    .filter(Boolean);

const pytest = { language: "python", command: "python3 -m pytest -rA" };

describe("choosing the tests that matter", () => {
  it("names each runner's test files with its own syntax", async () => {
    const py = await selectorFor(tree({ "conftest.py": "" }), pytest);
    expect(py?.command(["sympy/core/tests/test_power.py"])).toBe(
      "python3 -m pytest -rA './sympy/core/tests/test_power.py'",
    );
    const unit = await selectorFor(tree({ "setup.py": "" }), {
      language: "python",
      command: "python3 -m unittest discover",
    });
    expect(unit?.command(["tests/test_units.py"])).toBe("python3 -m unittest -v './tests/test_units.py'");
    const go = await selectorFor(tree({ "go.mod": "" }), { language: "go", command: "go test -json ./..." });
    expect(go?.command(["pkg/a/a_test.go", "pkg/a/b_test.go", "cmd/x_test.go"])).toBe(
      "go test -json './pkg/a' './cmd'",
    );
    const cargo = await selectorFor(tree({ "Cargo.toml": "" }), { language: "rust", command: "cargo test" });
    expect(cargo?.accepts("src/lib.rs")).toBe(false);
    expect(cargo?.command(["tests/parse.rs"])).toBe("cargo test --test parse");
    const node = await selectorFor(
      tree({ "package.json": JSON.stringify({ scripts: { test: "node --import ./scripts/ts.mjs --test test/" } }) }),
      { language: "node", command: "npm test" },
    );
    expect(node?.command(["test/a.test.ts"])).toBe("node --import ./scripts/ts.mjs --test './test/a.test.ts'");
    const jest = await selectorFor(tree({ "package.json": JSON.stringify({ scripts: { test: "jest --ci" } }) }), {
      language: "node",
      command: "npm test",
    });
    expect(jest?.runner).toBe("jest");
  });

  it("does not narrow what it cannot run file by file: a script doing more than one runner, tox, maven", async () => {
    for (const script of ["npm run build && node --test", "node --test $(ls test)", "jest; curl evil", "mocha"])
      expect(
        await selectorFor(tree({ "package.json": JSON.stringify({ scripts: { test: script } }) }), {
          language: "node",
          command: "npm test",
        }),
        script,
      ).toBeNull();
    expect(await selectorFor(tree({ "pom.xml": "" }), { language: "java", command: "mvn -q test" })).toBeNull();
  });

  it("quotes hostile file names into one word each that never reads as an option", async () => {
    const py = (await selectorFor(tree({ "conftest.py": "" }), pytest)) as Selector;
    const evil = [
      "tests/test_$(touch pwned).py",
      "tests/test_a'; rm -rf ~ #.py",
      "-x/test_opt.py",
      "tests/test_`id`.py",
    ];
    expect(words(py.command(evil))).toEqual(["-rA", ...evil.map((e) => `./${e}`)]);
    expect(shellPath("a b/test_x.py")).toBe("'./a b/test_x.py'");
  });

  it("runs the tests the issue names, then the tests near step 3's files in rank order, up to the cap", async () => {
    const py = (await selectorFor(tree({ "conftest.py": "" }), pytest)) as Selector;
    const got = relatedTests(
      {
        issueText: "Failing: sympy/core/tests/test_numbers.py::test_Float fails",
        allPaths: ["sympy/core/tests/test_numbers.py", "sympy/core/numbers.py", "sympy/core/tests/__init__.py"],
        chosen: [
          { path: "sympy/core/power.py", tests: ["sympy/core/tests/test_power.py", "sympy/core/tests/test_arit.py"] },
          { path: "sympy/core/mul.py", tests: ["sympy/core/tests/test_mul.py", "../../etc/test_passwd.py"] },
          { path: "sympy/core/conftest.py", tests: ["sympy/core/tests/__init__.py"] },
        ],
      },
      py,
      4,
    );
    expect(got).toEqual([
      { path: "sympy/core/tests/test_numbers.py", why: "named in the issue" },
      { path: "sympy/core/tests/test_power.py", why: "tests sympy/core/power.py" },
      { path: "sympy/core/tests/test_mul.py", why: "tests sympy/core/mul.py" },
      { path: "sympy/core/tests/test_arit.py", why: "tests sympy/core/power.py" },
    ]);
  });

  it("keeps the related files within a budget of test source, leaving out the large ones after the first", async () => {
    const py = (await selectorFor(tree({ "conftest.py": "" }), pytest)) as Selector;
    const KiB = 1024;
    const sizes: Record<string, number> = {
      "sympy/solvers/tests/test_solveset.py": 40 * KiB,
      "sympy/solvers/tests/test_solvers.py": 94 * KiB,
      "sympy/solvers/tests/test_polysys.py": 6 * KiB,
      "sympy/polys/tests/test_polytools.py": 121 * KiB,
    };
    const got = relatedTests(
      {
        issueText: "solve_poly_system((x - 1,), x, y) does not raise",
        allPaths: Object.keys(sizes),
        chosen: [
          {
            path: "sympy/solvers/solveset.py",
            tests: ["sympy/solvers/tests/test_solveset.py", "sympy/solvers/tests/test_solvers.py"],
          },
          {
            path: "sympy/solvers/polysys.py",
            tests: ["sympy/solvers/tests/test_polysys.py", "sympy/polys/tests/test_polytools.py"],
          },
        ],
        sizeOf: (p) => sizes[p],
      },
      py,
    );
    // 40 KB first, then 94 KB would pass the budget: left out; the 6 KB module still joins.
    expect(got.map((f) => f.path)).toEqual([
      "sympy/solvers/tests/test_solveset.py",
      "sympy/solvers/tests/test_polysys.py",
    ]);
    expect(MAX_RELATED_BYTES).toBeLessThan((40 + 94) * KiB);
    // The first file always runs, however large.
    const alone = relatedTests(
      {
        issueText: "",
        allPaths: [],
        chosen: [{ path: "a.py", tests: ["tests/test_big.py", "tests/test_a.py"] }],
        sizeOf: (p) => (p.includes("big") ? 500 * KiB : 1),
      },
      py,
    );
    expect(alone.map((f) => f.path)).toEqual(["tests/test_big.py"]);
  });

  it("takes the test files a patch writes, not its source files nor the files it deletes", async () => {
    const py = (await selectorFor(tree({ "conftest.py": "" }), pytest)) as Selector;
    expect(
      patchTestFiles(
        [
          { filename: "sympy/core/power.py", action: "modify" },
          { filename: "sympy/core/tests/test_power.py", action: "modify" },
          { filename: "sympy/core/tests/test_new.py", action: "create" },
          { filename: "sympy/core/tests/test_old.py", action: "delete" },
        ],
        py,
      ),
    ).toEqual(["sympy/core/tests/test_power.py", "sympy/core/tests/test_new.py"]);
  });
});
