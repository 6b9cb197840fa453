import { beforeAll, describe, expect, it } from "vitest";
import { insertIssue } from "@fixloop/testkit";
import { SolutionTests, testsVerdict, type TestsEvent } from "@fixloop/contract";
import { readSse, type SseEvent } from "../../test/sse.testkit";
import { importedRepository, solveKit } from "../../test/solve.testkit";
import { errorOf } from "../../test/testing";
import { filesContaining, pushFiles, TAB_TEST } from "../../test/tests-run.testkit";

const t = solveKit({ workers: ["solve", "sync"], logLevel: "debug" });
const WEATHER = { owner: "octocat", repo: "weather-cli" };
/** octocat's test settings of a repository, through the typed client. */
const testSettings = () => t.api.github.repositories[":owner"][":repo"]["test-settings"];

beforeAll(async () => {
  await importedRepository(t, "octocat/weather-cli"); // test settings belong to a stored repository
  // A maintainer added a test for the bug in issue 3: it fails on the base commit.
  pushFiles(
    t.stack,
    "hubot",
    "markdown-lint",
    { "test/trailing-tabs.test.js": TAB_TEST },
    "Add a failing test for trailing tabs",
  );
});

const FIX = { search: "const TRAILING = / +$/;\n", replace: "const TRAILING = /[ \\t]+$/;\n" };
const BREAKING = { search: "const TRAILING = / +$/;\n", replace: "const TRAILING = /\\t+$/;\n" };
const answer = (edit: { search: string; replace: string }, confidence = 80) => ({
  analysis: "TRAILING only matches spaces.",
  proposedSolution: "Match tabs too.",
  confidence,
  files: [{ filename: "src/rules/trailing-spaces.js", action: "modify" as const, edits: [edit] }],
});

async function solve(o: { number?: number; repo?: string; title?: string; body?: string } = {}) {
  const issue = await insertIssue(t.stack.db, t.userId, o);
  const res = await t.generate({ issueId: issue.id });
  const { runId } = await res.json();
  const events = await readSse(await t.events(runId));
  const end = events.at(-1) as SseEvent;
  expect(end.event, JSON.stringify(end.data)).toBe("completed");
  const solutionId = (end.data as { solutionId: string }).solutionId;
  const view = await t.api.validations[":id"].$get({ param: { id: solutionId } });
  const { solution } = await view.json();
  return {
    runId,
    events,
    solution,
    tests: SolutionTests.parse(solution.metadata.tests),
    testEvents: events
      .filter((e) => e.event === "tests")
      .map((e) => ({ ...(e.data as Omit<TestsEvent, "type">), id: e.id })),
  };
}

describe("proving a fix with the repository's tests (real bubblewrap)", () => {
  it("runs the tests before and after the patch: the failing test turns green, counted and streamed live with ids", async () => {
    t.models.control.respondWith((p) => p.includes("trailing-spaces"), answer(FIX));
    const { tests, testEvents, solution, runId } = await solve();
    expect(tests.status).toBe("passed");
    expect(tests.backend).toBe("bwrap");
    // Not the whole suite: the test files related to the change, with the runner's own syntax, each with why.
    expect(tests.command).toMatch(/^node --test '\.\/test\/[\w.-]+\.test\.js'( '\.\/test\/[\w.-]+\.test\.js')*$/);
    expect(tests.command).toContain("'./test/trailing-tabs.test.js'");
    expect(tests.selection?.scope).toBe("related");
    expect(tests.selection?.files).toContainEqual({
      path: "test/trailing-spaces.test.js",
      why: "tests src/rules/trailing-spaces.js",
    });
    expect(tests.base).toMatchObject({ failed: 1 });
    expect(tests.patched).toMatchObject({ failed: 0, passed: (tests.base?.passed ?? 0) + 1 });
    expect(tests.fixed).toEqual(["reports trailing tabs"]);
    expect(tests.regressions).toEqual([]);
    expect(tests.attempts.map((a) => a.label)).toEqual(["first"]);
    expect(tests.logTail).toContain("# pass");
    expect(solution.confidence).toBe(90); // 80 from the model, +10 for a proven fix
    const phases = testEvents.filter((e) => e.done).map((e) => e.phase);
    expect(phases).toEqual(["base", "patched"]);
    expect(testEvents.every((e) => /^\d+-\d+$/.test(e.id ?? ""))).toBe(true);
    expect(testEvents.map((e) => e.output).join("")).toContain("reports trailing tabs");
    const lastPatched = testEvents.filter((e) => e.phase === "patched").at(-1);
    expect(lastPatched?.counts).toMatchObject({ failed: 0 });
    // The finished run keeps its log in Postgres: a page opened after the live stream expired shows it.
    const stored = await t.api.runs[":id"]["tests-log"].$get({ param: { id: runId } });
    expect(stored.status).toBe(200);
    const { phases: kept } = await stored.json();
    expect(kept.map((p) => [p.phase, p.done, p.dropped])).toEqual([
      ["base", true, 0],
      ["patched", true, 0],
    ]);
    const streamed = (phase: string) =>
      testEvents
        .filter((e) => e.phase === phase)
        .map((e) => e.output)
        .join("");
    expect(kept[0]?.output).toBe(streamed("base"));
    expect(kept[1]?.output).toBe(streamed("patched"));
    expect(kept[1]?.output).toContain("reports trailing tabs");
    expect(kept.map((p) => p.counts.failed)).toEqual([1, 0]);
    // Another user's run is not found.
    const other = await t.stack.signIn("hubot");
    const hidden = await t.stack.client(other.headers).runs[":id"]["tests-log"].$get({ param: { id: runId } });
    expect(hidden.status).toBe(404);
  });

  it("detects a regression, gives the model one repair round with the failing output, and keeps the repaired attempt", async () => {
    t.models.control.respondWith((p) => p.includes("trailing-spaces"), answer(BREAKING));
    t.models.control.respondWith(
      (p) => p.includes("breaks tests that passed before it"),
      answer({ search: "const TRAILING = /\\t+$/;\n", replace: "const TRAILING = /[ \\t]+$/;\n" }),
    );
    const { tests, testEvents, solution, runId } = await solve({ number: 13 });
    const repairPrompt = t.models.control.requests.at(-1)?.prompt ?? "";
    // Every request is on record: the reproduction test before the fix (step 4), the repair round under the validating step.
    const requests = await t.stack.db
      .selectFrom("model_requests")
      .select(["step", "purpose"])
      .where("run_id", "=", runId)
      .orderBy("created_at")
      .execute();
    expect(requests).toEqual([
      { step: "generating", purpose: "reproduction test" },
      { step: "generating", purpose: "answer" },
      { step: "validating", purpose: "tests repair" },
    ]);
    expect(repairPrompt).toContain("reports trailing spaces with their column");
    expect(tests.attempts).toHaveLength(2);
    expect(tests.attempts[0]?.regressions).toContain("reports trailing spaces with their column");
    expect(tests.attempts[1]?.regressions).toEqual([]);
    expect(tests.kept).toBe("repair");
    expect(tests.status).toBe("passed");
    // The replaced first attempt stays on record so the page can show its diff; the kept one is the solution itself.
    expect(tests.attempts[0]?.files?.[0]?.content).toContain("const TRAILING = /\\t+$/;");
    expect(tests.attempts[1]?.files).toBeUndefined();
    expect(solution.filesChanged[0]?.content).toContain("const TRAILING = /[ \\t]+$/;");
    expect(testEvents.filter((e) => e.done).map((e) => e.phase)).toEqual(["base", "patched", "repair"]);
    expect(testEvents[0]?.output).toContain("reused"); // base results of this commit were cached by the first run
  });

  it("keeps the first attempt when the repair is no better, reports the regression and raises the risk", async () => {
    t.models.control.respondWith((p) => p.includes("trailing-spaces"), answer(BREAKING, 70));
    const { tests, solution } = await solve({ number: 14 });
    expect(tests.status).toBe("failed");
    expect(tests.regressions).toContain("reports trailing spaces with their column");
    expect(tests.attempts).toHaveLength(2);
    expect(tests.kept).toBe("first");
    expect(solution.confidence).toBe(45);
    expect(solution.metadata.riskScore).toBeGreaterThanOrEqual(20); // +15, +5 for the one regression
  });

  it("stops tests at the repository's timeout (user setting) and says so; the token never lands in a workspace or a log", async () => {
    const put = await testSettings().$put({
      param: WEATHER,
      json: {
        command: "python3 -m unittest discover -s tests -t . -v; sleep 600",
        setup: null,
        timeoutSeconds: 5,
        setupNetwork: false,
      },
    });
    expect(put.status).toBe(200);
    try {
      const started = Date.now();
      const { tests } = await solve({
        repo: "octocat/weather-cli",
        number: 2,
        title: "Wind speed conversion",
        body: "See `weather/units.py`.",
      });
      expect(tests.status).toBe("error");
      // The command the user configured runs as written (the whole suite, on request) ...
      expect(tests.command).toBe("python3 -m unittest discover -s tests -t . -v; sleep 600");
      expect(tests.selection?.scope).toBe("suite");
      // ... and after it timed out on the base tree, it is not started again on the change.
      expect(tests.reason).toMatch(
        /^timed out on the base tree after 5 s \(its log shows \d+ passed, 0 failing before the limit\); the change was not run with the same command$/,
      );
      expect(tests.patched).toBeNull();
      expect(tests.cause).toBe("timeout");
      expect(Date.now() - started).toBeLessThan(60_000);
    } finally {
      await testSettings().$put({
        param: WEATHER,
        json: { command: null, setup: null, timeoutSeconds: null, setupNetwork: false },
      });
    }
    const account = await t.stack.db
      .selectFrom("github_accounts")
      .selectAll()
      .where("user_id", "=", t.userId)
      .executeTakeFirstOrThrow();
    const token = t.stack.ctx.cipher.decrypt(account.key_id, account.access_token_enc, account.user_id);
    expect(token.length).toBeGreaterThan(10);
    expect(filesContaining(t.stack.ctx.env.WORKSPACE_DIR ?? "", token)).toEqual([]);
    expect(t.stack.logs.join("")).not.toContain(token);
  });

  it("rejects bad test settings with a clear error and changes nothing", async () => {
    const bad = await testSettings().$put({
      param: WEATHER,
      json: { command: "", setup: null, timeoutSeconds: 1, setupNetwork: false },
    });
    expect(bad.status).toBe(400);
    expect((await errorOf(bad)).code).toBe("request.invalid");
    const missing = await testSettings().$get({ param: { owner: "octocat", repo: "nope" } });
    expect(missing.status).toBe(404);
    const got = await testSettings().$get({ param: WEATHER });
    expect((await got.json()).settings).toEqual({
      command: null,
      setup: null,
      timeoutSeconds: null,
      setupNetwork: false,
    });
  });

  it("runs a Python repository's unittest suite and counts it", async () => {
    const { tests } = await solve({
      repo: "octocat/weather-cli",
      number: 1,
      title: "Wind speed conversion",
      body: "See `weather/units.py`.",
    });
    expect(tests.command).toMatch(/^python3 -m unittest -v '\.\/tests\/test_\w+\.py'/);
    expect(tests.selection?.files.map((f) => f.path)).toContain("tests/test_units.py");
    expect(tests.base?.passed).toBeGreaterThan(0);
    expect(tests.patched).not.toBeNull();
  });
  it("counts a test the change adds as proof only when it fails on the base tree", async () => {
    const kelvin = (n: number, edit: { search: string; replace: string }, test: string) =>
      t.models.control.respondWith((p) => p.includes(`Issue #${n} (`), {
        analysis: "kelvin_to_celsius subtracts absolute zero instead of adding it.",
        proposedSolution: "Add ABSOLUTE_ZERO_C.",
        confidence: 80,
        files: [
          { filename: "weather/units.py", action: "modify" as const, edits: [edit] },
          { filename: "tests/test_kelvin.py", action: "create" as const, content: test, edits: [] },
        ],
      });
    const issue = {
      repo: "octocat/weather-cli",
      title: "Kelvin readings are converted to absurd Celsius values",
      body: "A reading of 293.15 K shows 566.3 °C. The conversion is `kelvin_to_celsius()` in `weather/units.py`.",
    };
    const TEST = (assertion: string) =>
      `import unittest\n\nfrom weather.units import kelvin_to_celsius\n\n\nclass KelvinTest(unittest.TestCase):\n    def test_twenty(self):\n        ${assertion}\n`;
    // The fix, with a test that fails before it: the new test ran on the base tree, failed, and is fixed.
    kelvin(
      31,
      { search: "return kelvin - ABSOLUTE_ZERO_C", replace: "return kelvin + ABSOLUTE_ZERO_C" },
      TEST("self.assertAlmostEqual(kelvin_to_celsius(293.15), 20)"),
    );
    const fixed = await solve({ ...issue, number: 31 });
    expect(fixed.tests.status).toBe("passed");
    expect(fixed.tests.fixed.some((n) => n.includes("test_twenty"))).toBe(true);
    expect(fixed.tests.selection?.files).toContainEqual({ path: "tests/test_units.py", why: "tests weather/units.py" });
    expect(testsVerdict(fixed.tests).text).toBe("passed");
    // A change beside the point, with a test that passes before it: it proves nothing.
    kelvin(
      32,
      { search: '"""Some stations report Kelvin', replace: '"""Stations may report Kelvin' },
      TEST("self.assertTrue(kelvin_to_celsius(0) > -1000)"),
    );
    const idle = await solve({ ...issue, number: 32 });
    expect(idle.tests.status).toBe("passed");
    expect(idle.tests.fixed).toEqual([]);
    // It is listed as a new passing test, never as proof.
    expect(idle.tests.added?.some((n) => n.includes("test_twenty"))).toBe(true);
    expect(testsVerdict(idle.tests).text).toBe("no regression found");
    const meta = (
      await t.stack.db
        .selectFrom("solutions")
        .select("metadata")
        .where("run_id", "=", idle.runId)
        .executeTakeFirstOrThrow()
    ).metadata as { unverified?: { reason: string } | null };
    expect(meta.unverified?.reason).toBeTruthy();
  });

  it("finishes the run when the test output holds NUL bytes, stored as U+FFFD", async () => {
    pushFiles(
      t.stack,
      "hubot",
      "markdown-lint",
      {
        "test/noisy-output.test.js":
          'import { test } from "node:test";\n\ntest("prints a NUL byte", () => {\n  process.stdout.write("noisy \\u0000 output\\n");\n  console.log("noisy \\u0000 log");\n});\n',
      },
      "Add a test whose output has NUL bytes",
    );
    t.models.control.respondWith((p) => p.includes("Issue #15 ("), answer(FIX));
    // The issue names the test file: it runs with the tests related to the change.
    const { tests } = await solve({ number: 15, body: "The output of test/noisy-output.test.js is garbled." });
    expect(tests.selection?.files).toContainEqual({ path: "test/noisy-output.test.js", why: "named in the issue" });
    expect(tests.status).toBe("passed");
    expect(tests.patched).toMatchObject({ failed: 0 });
    expect(tests.logTail).not.toContain("\u0000");
    expect(tests.logTail).toContain("noisy \uFFFD");
  });
});
