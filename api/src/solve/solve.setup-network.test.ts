import { beforeAll, describe, expect, it } from "vitest";
import { insertIssue, seedRepository } from "@fixloop/testkit";
import { SolutionTests } from "@fixloop/contract";
import { errorOf } from "../../test/testing";
import { readSse, type SseEvent } from "../../test/sse.testkit";
import { importedRepository, solveKit } from "../../test/solve.testkit";
import { pushFiles } from "../../test/tests-run.testkit";

// An imported repository's .fixloop.yml asks for network during setup: the user answers allow once / always / never.
const t = solveKit({ workers: ["solve", "sync"] });

beforeAll(async () => {
  await importedRepository(t, "octocat/weather-cli");
  // The setup says whether it was given the egress proxy; the tests print what it said.
  pushFiles(
    t.stack,
    "hubot",
    "markdown-lint",
    {
      ".fixloop.yml":
        'test: cat net.txt; npm test\nsetup: echo "proxy=${HTTPS_PROXY:-none}" > net.txt\nnetwork: true\n',
    },
    "Ask for network during setup",
  );
});

/** An issue of hubot/markdown-lint imported by octocat (worked on in a fork). */
async function importedIssue(number: number, fork: string | null) {
  // Stored under the stand-in's id, as the import stores it.
  const upstream = (await (await fetch(`${t.stack.github.url}/repos/hubot/markdown-lint`)).json()) as { id: number };
  await seedRepository(t.stack.db, "hubot/markdown-lint", upstream.id);
  const issue = await insertIssue(t.stack.db, t.userId, { repo: "hubot/markdown-lint", number });
  await t.stack.db
    .updateTable("issues")
    .set({ is_imported: true, fork_github_id: fork && (await seedRepository(t.stack.db, fork)) })
    .where("id", "=", issue.id)
    .execute();
  return issue.id;
}

const post = (body: Parameters<typeof t.generate>[0]) => t.generate(body);

async function solve(issueId: string, setupNetwork?: string) {
  // Each run solves the same issue again while the last solution waits for review: asked for explicitly.
  const res = await post({ issueId, solveAgain: true, ...(setupNetwork ? { setupNetwork } : {}) });
  expect(res.status).toBe(202);
  const { runId } = await res.json();
  const end = (await readSse(await t.events(runId))).at(-1) as SseEvent;
  expect(end.event, JSON.stringify(end.data)).toBe("completed");
  const solutionId = (end.data as { solutionId: string }).solutionId;
  const view = await t.api.validations[":id"].$get({ param: { id: solutionId } });
  const { solution } = await view.json();
  return { runId, tests: SolutionTests.parse(solution.metadata.tests) };
}

const runCount = async () =>
  Number(
    (
      await t.stack.db
        .selectFrom("solve_runs")
        .select((eb) => eb.fn.countAll().as("n"))
        .where("user_id", "=", t.userId)
        .executeTakeFirstOrThrow()
    ).n,
  );

describe("an imported repository's setup that wants network asks first (real bubblewrap)", () => {
  it("nobody chose: never (setup offline, the step asks); allow once: the next run only, through the proxy", async () => {
    const issueId = await importedIssue(3, null);
    const asked = await solve(issueId);
    expect(asked.tests.logTail).toContain("proxy=none");
    expect(asked.tests.networkWanted).toBe(true);
    expect(asked.tests.notes).toContainEqual(expect.stringContaining("allow once / always / never"));

    const once = await solve(issueId, "once");
    expect(once.tests.logTail).toMatch(/proxy=http:\/\/127\.0\.0\.1:\d+/);
    expect(once.tests.networkWanted).toBeUndefined();
    const input = await t.stack.db
      .selectFrom("solve_runs")
      .select("input")
      .where("id", "=", once.runId)
      .executeTakeFirstOrThrow();
    expect(input.input).toMatchObject({ setupNetwork: "once" });

    const after = await solve(issueId);
    expect(after.tests.logTail).toContain("proxy=none");
    expect(after.tests.networkWanted).toBe(true);
  });

  it("always: stored in the test settings of the user's fork, so every later run's setup gets network", async () => {
    const issueId = await importedIssue(16, "octocat/weather-cli");
    await solve(issueId, "always");
    const settings = await t.api.github.repositories[":owner"][":repo"]["test-settings"].$get({
      param: { owner: "octocat", repo: "weather-cli" },
    });
    expect((await settings.json()).settings.setupNetwork).toBe(true);
    const later = await solve(issueId);
    expect(later.tests.logTail).toMatch(/proxy=http:\/\/127\.0\.0\.1:\d+/);
    expect(later.tests.networkWanted).toBeUndefined();

    // never: this run stays offline though the settings grant it, and says so.
    const never = await solve(issueId, "never");
    expect(never.tests.logTail).toContain("proxy=none");
    expect(never.tests.notes).toContainEqual(expect.stringContaining("refused (never)"));
  });

  it("refuses a choice it cannot honour or does not know with a clear error, and starts nothing", async () => {
    const issueId = await importedIssue(17, null);
    const before = await runCount();
    const unknown = await post({ issueId, setupNetwork: "sometimes" });
    expect(unknown.status).toBe(400);
    expect((await errorOf(unknown)).code).toBe("request.invalid");
    const nowhere = await post({ issueId, setupNetwork: "always" });
    expect(nowhere.status).toBe(409);
    const error = await errorOf(nowhere);
    expect(error.code).toBe("setup_network.no_repository");
    expect(error.message).toContain("hubot/markdown-lint");
    expect(await runCount()).toBe(before);
  });
});
