import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { insertIssue } from "@fixloop/testkit";
import { answerAsOracle } from "@fixloop/testkit/sandbox";
import { until } from "../../test/faults.testkit";
import { solveKit } from "../../test/solve.testkit";

/**
 * A real repository: sympy 1.11.1 as Debian's python3-sympy ships it (tests included), pushed to
 * the GitHub stand-in, with SWE-bench's sympy__sympy-24152 as the issue (TensorProduct.expand stops
 * early when a summand has a scalar factor). The model stand-in answers as an oracle: the fix the
 * issue itself proposes, and a reproduction test for the behaviour it reports.
 *
 * It runs in CI (.ci/run installs python3-sympy, python3-pytest and python3-mpmath); without Debian's
 * sympy package the test is skipped, as the repository it needs is absent. The solve brings the tree
 * in one tarball transfer and runs the tests related to the change, so it ends in minutes.
 */
const SYMPY = "/usr/lib/python3/dist-packages/sympy";
const t = solveKit({ workers: ["solve"] });

const TITLE = "Bug in expand of TensorProduct + Workaround + Fix";
// Quoted from the issue (sympy/sympy#24151).
const BODY = [
  "### Error description",
  "The expansion of a TensorProduct object stops incomplete if summands in the tensor product factors have (scalar) factors, e.g.",
  "```",
  "P = TensorProduct(2*U - V, U + V)",
  "print(P.expand(tensorproduct=True))",
  "#result: 2*Ux(U + V) - Vx(U + V) #expansion has missed 2nd tensor factor and is incomplete",
  "```",
  "This is clearly not the expected behaviour.",
].join("\n");
const FILE = "sympy/physics/quantum/tensorproduct.py";
const SEARCH = [
  "                    if isinstance(tp, TensorProduct):",
  "                        tp = tp._eval_expand_tensorproduct()",
  "                    add_args.append(tp)",
  "",
].join("\n");
const REPLACE = [
  "                    scalars, factors = tp.args_cnc()",
  "                    if len(factors) == 1 and isinstance(factors[0], TensorProduct):",
  "                        factors = [factors[0]._eval_expand_tensorproduct()]",
  "                    add_args.append(Mul(*scalars)*Mul(*factors))",
  "",
].join("\n");
const REPRODUCTION = [
  "from sympy.physics.quantum.operator import Operator",
  "from sympy.physics.quantum.tensorproduct import TensorProduct as TP",
  "",
  "",
  "def test_tensor_product_expand():",
  "    U, V = Operator('U'), Operator('V')",
  "    expanded = TP(2*U - V, U + V).expand(tensorproduct=True)",
  "    assert expanded == 2*TP(U, U) + 2*TP(U, V) - TP(V, U) - TP(V, V)",
  "",
].join("\n");

/** Debian's sympy package as a repository tree (caches left out) with a pytest root, pushed as `main`. */
function pushSympy(bare: string): void {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "fixloop-sympy-"));
  try {
    fs.cpSync(SYMPY, path.join(dir, "sympy"), { recursive: true, filter: (p) => !p.includes("__pycache__") });
    fs.writeFileSync(path.join(dir, "conftest.py"), "");
    fs.writeFileSync(
      path.join(dir, "setup.py"),
      "from setuptools import setup\n\nsetup(name='sympy', version='1.11.1')\n",
    );
    const git = (...args: string[]) =>
      execFileSync("git", ["-c", "user.name=Maintainer", "-c", "user.email=m@example.com", ...args], { cwd: dir });
    git("init", "-q", "-b", "main");
    git("add", "-A");
    git("commit", "-q", "-m", "sympy 1.11.1");
    git("push", "-q", "--force", bare, "HEAD:refs/heads/main");
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

describe.skipIf(!fs.existsSync(SYMPY))("a solve on a real repository (sympy 1.11.1)", () => {
  it(
    "ends verified: the reproduction test fails on the base, passes with the fix, and no test regresses",
    async () => {
      const gh = t.stack.github.control;
      await gh.createRepository("octocat", "sympy");
      pushSympy(gh.gitDir("octocat", "sympy"));
      answerAsOracle(t.models.control, "TensorProduct", {
        solution: {
          analysis: "A summand with a scalar factor is a Mul, not a TensorProduct, so it is never expanded further.",
          proposedSolution: "Split off the commutative factors and expand the one TensorProduct left.",
          confidence: 90,
          files: [{ filename: FILE, action: "modify", edits: [{ search: SEARCH, replace: REPLACE }] }],
        },
        reproduction: {
          filename: "sympy/physics/quantum/tests/test_issue_24151.py",
          content: REPRODUCTION,
          reason: "Expands a tensor product whose summands have scalar factors.",
        },
      });
      const issue = await insertIssue(t.stack.db, t.userId, {
        repo: "octocat/sympy",
        number: 1,
        title: TITLE,
        body: BODY,
        labels: [],
      });
      const started = await t.generate({ issueId: issue.id });
      expect(started.status).toBe(202);
      const { runId } = (await started.json()) as { runId: string };
      const load = () =>
        t.stack.db.selectFrom("solve_runs").selectAll().where("id", "=", runId).executeTakeFirstOrThrow();
      await until(
        "the solve ends",
        async () => ["completed", "failed"].includes((await load()).status),
        25 * 60_000,
        2_000,
      ).catch(() => undefined);
      const run = await load();
      const steps = await t.stack.db
        .selectFrom("run_steps")
        .select(["step", "status"])
        .where("run_id", "=", runId)
        .execute();
      expect(run.status, `the run's steps: ${JSON.stringify(steps)}`).toBe("completed");
      const solution = await t.stack.db
        .selectFrom("solutions")
        .selectAll()
        .where("id", "=", run.solution_id ?? "")
        .executeTakeFirstOrThrow();
      expect((solution.files_changed as { filename: string }[]).map((f) => f.filename)).toEqual([FILE]);
      const meta = solution.metadata as {
        unverified: { reason: string } | null;
        reproduction: { status: string; passesWithSolution: boolean | null } | null;
        tests: { regressions: string[]; status: string } | null;
      };
      expect(meta.reproduction).toMatchObject({ status: "kept", passesWithSolution: true });
      expect(meta.tests?.regressions).toEqual([]);
      expect(meta.unverified ?? null).toBeNull();
    },
    30 * 60_000,
  );
});
