import { beforeAll, describe, expect, it } from "vitest";
import { insertIssue } from "@fixloop/testkit";
import { SolutionTests, type TestsEvent } from "@fixloop/contract";
import { readSse, type SseEvent } from "../../test/sse.testkit";
import { solveKit } from "../../test/solve.testkit";
import { filesContaining, pushFiles, TAB_TEST } from "../../test/tests-run.testkit";

const t = solveKit({ workers: ["solve", "sync"], logLevel: "debug" });

beforeAll(async () => {
  await t.stack.app.request("/api/github/repositories", { headers: t.headers }); // imports the user's repositories (test settings belong to one)
  for (
    let i = 0;
    i < 100 &&
    !(await t.stack.db
      .selectFrom("repositories")
      .select("id")
      .where("user_id", "=", t.userId)
      .where("full_name", "=", "octocat/weather-cli")
      .executeTakeFirst());
    i++
  ) {
    await new Promise((r) => setTimeout(r, 100));
  }
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
  const { runId } = (await res.json()) as { runId: string };
  const events = await readSse(await t.events(runId));
  const end = events.at(-1) as SseEvent;
  expect(end.event, JSON.stringify(end.data)).toBe("completed");
  const solutionId = (end.data as { solutionId: string }).solutionId;
  const view = await t.stack.app.request(`/api/validations/${solutionId}`, { headers: t.headers });
  const { solution } = (await view.json()) as {
    solution: {
      confidence: number;
      filesChanged: { content: string }[];
      metadata: { tests: unknown; riskScore: number };
    };
  };
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
    const { tests, testEvents, solution } = await solve();
    expect(tests.status).toBe("passed");
    expect(tests.backend).toBe("bwrap");
    expect(tests.command).toBe("npm test");
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
    const put = await t.stack.app.request("/api/github/repositories/octocat/weather-cli/test-settings", {
      method: "PUT",
      headers: t.headers,
      body: JSON.stringify({
        command: "python3 -m unittest discover -s tests -t . -v; sleep 600",
        setup: null,
        timeoutSeconds: 5,
        setupNetwork: false,
      }),
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
      expect(tests.reason).toBe("timed out after 5 s");
      expect(tests.cause).toBe("timeout");
      expect(Date.now() - started).toBeLessThan(60_000);
    } finally {
      await t.stack.app.request("/api/github/repositories/octocat/weather-cli/test-settings", {
        method: "PUT",
        headers: t.headers,
        body: JSON.stringify({ command: null, setup: null, timeoutSeconds: null, setupNetwork: false }),
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
    const bad = await t.stack.app.request("/api/github/repositories/octocat/weather-cli/test-settings", {
      method: "PUT",
      headers: t.headers,
      body: JSON.stringify({ command: "", setup: null, timeoutSeconds: 1, setupNetwork: false }),
    });
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { error: { code: string } }).error.code).toBe("request.invalid");
    const missing = await t.stack.app.request("/api/github/repositories/octocat/nope/test-settings", {
      headers: t.headers,
    });
    expect(missing.status).toBe(404);
    const got = await t.stack.app.request("/api/github/repositories/octocat/weather-cli/test-settings", {
      headers: t.headers,
    });
    expect(((await got.json()) as { settings: unknown }).settings).toEqual({
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
    expect(tests.command).toBe("python3 -m unittest discover -s tests -t . -v");
    expect(tests.base?.passed).toBeGreaterThan(0);
    expect(tests.patched).not.toBeNull();
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
    const { tests } = await solve({ number: 15 });
    expect(tests.status).toBe("passed");
    expect(tests.patched).toMatchObject({ failed: 0 });
    expect(tests.logTail).not.toContain("\u0000");
    expect(tests.logTail).toContain("noisy \uFFFD");
  });
});
