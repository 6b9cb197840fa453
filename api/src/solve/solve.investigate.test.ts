import fs from "node:fs";
import { beforeAll, describe, expect, it } from "vitest";
import { eventually, insertIssue } from "@fixloop/testkit";
import { GeneratingOutput, SolutionTests, type AgentEvent } from "@fixloop/contract";
import { steps } from "@fixloop/db";
import type { AgentScriptStep } from "@fixloop/testkit/sandbox";
import { readSse, type SseEvent } from "../../test/sse.testkit";
import { solveKit } from "../../test/solve.testkit";
import { pushFiles, TAB_TEST } from "../../test/tests-run.testkit";

const MAX_TURNS = 8;
const t = solveKit({
  workers: ["solve", "syntax-check"],
  env: (m) => ({ ...m.env, AGENT_MAX_TURNS: String(MAX_TURNS), AGENT_RUN_TIMEOUT_SECONDS: "40" }),
});

let issueId = "";
beforeAll(async () => {
  issueId = (await insertIssue(t.stack.db, t.userId, { number: 3 })).id;
  pushFiles(t.stack, "hubot", "markdown-lint", { "test/trailing-tabs.test.js": TAB_TEST }, "Add a failing test");
});

const RULE = "src/rules/trailing-spaces.js";
const FIX = { search: "const TRAILING = / +$/;\n", replace: "const TRAILING = /[ \\t]+$/;\n" };
const edit: AgentScriptStep = { tool: "edit", args: { path: RULE, action: "modify", edits: [FIX] } };
const submit: AgentScriptStep = {
  tool: "submit",
  args: { analysis: "TRAILING only matches spaces.", proposedSolution: "Match tabs too.", confidence: 85 },
};
const runTest: AgentScriptStep = { tool: "run", args: { command: "node --test test/trailing-tabs.test.js" } };
const isTrailing = (task: string) => task.includes("trailing-spaces");

/** One issue solved again each time (a solution of it awaits review after the first). */
async function solve() {
  const res = await t.generate({ issueId, mode: "investigate", solveAgain: true });
  expect(res.status).toBe(202);
  const { runId } = await res.json();
  return runId;
}

async function finished(runId: string) {
  const events = await readSse(await t.events(runId));
  const end = events.at(-1) as SseEvent;
  const agent = events.filter((e) => e.event === "agent").map((e) => e.data as AgentEvent);
  const stored = (await steps.load(t.stack.db, runId, ["generating"])).get("generating");
  const output = stored?.output ? GeneratingOutput.parse(stored.output) : null;
  return { end, agent, output, events };
}

const agentTurns = () => t.models.control.requests.filter((r) => r.agentTurn !== undefined);

describe("Investigate: an agent explores, reproduces, edits, tests and submits (real bubblewrap)", () => {
  it("reproduces the failure, edits, sees the test pass, submits; steps 5 validates what it submitted; every turn is in the ledger", async () => {
    t.models.control.agentWith(isTrailing, [
      { tool: "search", args: { query: "TRAILING" } },
      { tool: "open_file", args: { path: RULE, start: 1, end: 20 } },
      runTest,
      edit,
      runTest,
      submit,
    ]);
    const runId = await solve();
    const { end, agent, output } = await finished(runId);
    expect(end.event, JSON.stringify(end.data)).toBe("completed");
    const actions = agent.flatMap((e) => (e.action ? [e.action] : []));
    expect(actions.map((a) => a.tool)).toEqual(["search", "open_file", "run", "edit", "run", "submit"]);
    expect(actions[0]?.output).toContain(`${RULE}:`);
    const [before, after] = actions.filter((a) => a.tool === "run");
    expect(before?.exitCode).not.toBe(0);
    expect(after?.exitCode).toBe(0);
    expect(actions.find((a) => a.tool === "edit")?.diff).toContain("+const TRAILING = /[ \\t]+$/;");
    expect(agent.at(-1)?.ended).toEqual({ by: "submitted", turns: 6 });
    expect(output?.agent?.[0]).toMatchObject({ endedBy: "submitted", turns: 6 });
    expect(output?.filesChanged.map((f) => f.filename)).toEqual([RULE]);
    expect(output?.confidence).toBe(85);
    // Step 5 ran the repository's tests on what the agent submitted.
    const solutionId = (end.data as { solutionId: string }).solutionId;
    const res = await t.api.validations[":id"].$get({ param: { id: solutionId } });
    const { solution } = await res.json();
    const tests = SolutionTests.parse(solution.metadata.tests);
    expect(tests.status).toBe("passed");
    const turns = await t.stack.db
      .selectFrom("model_requests")
      .select(["purpose", "state"])
      .where("run_id", "=", runId)
      .where("purpose", "like", "agent turn%")
      .execute();
    expect(turns).toHaveLength(6);
    expect(turns.every((r) => r.state === "settled")).toBe(true);
  });

  it("a runaway that never submits ends at AGENT_MAX_TURNS, keeps its edit and says which limit ended it", async () => {
    t.models.control.agentWith(isTrailing, (v) => (v.turn === 1 ? edit : { tool: "list_dir", args: { path: "." } }));
    const runId = await solve();
    const { end, agent, output } = await finished(runId);
    expect(end.event, JSON.stringify(end.data)).toBe("completed");
    expect(agentTurns()).toHaveLength(MAX_TURNS);
    expect(agent.at(-1)?.ended).toEqual({ by: "max_turns", turns: MAX_TURNS });
    expect(output?.agent?.[0]?.endedBy).toBe("max_turns");
    expect(output?.filesChanged.map((f) => f.filename)).toEqual([RULE]);
    const { run } = await (await t.api.runs[":id"].$get({ param: { id: runId } })).json();
    const warnings = run.steps.find((s) => s.id === "generating")?.detail.warnings ?? [];
    expect(warnings.join("\n")).toContain("turn limit (AGENT_MAX_TURNS)");
  });

  it("an escaper is refused by the tools: paths out, .git, workflows, no network, no secrets, hidden characters stripped", async () => {
    const port = new URL(t.models.url).port;
    t.models.control.agentWith(isTrailing, [
      { tool: "open_file", args: { path: "../../../../etc/passwd" } },
      { tool: "open_file", args: { path: "/etc/passwd" } },
      { tool: "list_dir", args: { path: ".git" } },
      {
        tool: "edit",
        args: { path: ".github/workflows/ci.yml", action: "create", content: "on: push\njobs: {}\n" },
      },
      { tool: "edit", args: { path: RULE, action: "modify", edits: [FIX, { search: "nowhere", replace: "x" }] } },
      {
        tool: "run",
        args: {
          command: `curl -s -m 3 http://127.0.0.1:${port}/ ; node -e "fetch('http://127.0.0.1:${port}/').then(()=>console.log('REACHED'),e=>console.log('BLOCKED',e.cause&&e.cause.code))"; env; printf 'A\\342\\200\\256B\\033[31mC'`,
        },
      },
      edit,
      submit,
    ]);
    const runId = await solve();
    const { end, agent, output } = await finished(runId);
    expect(end.event, JSON.stringify(end.data)).toBe("completed");
    const actions = agent.flatMap((e) => (e.action ? [e.action] : []));
    expect(actions[0]?.refused).toContain("leaves the repository");
    expect(actions[1]?.refused).toContain("not a path inside the repository");
    expect(actions[2]?.refused).toContain(".git");
    expect(actions[3]?.refused).toContain(".github/workflows/ci.yml: CI");
    // Atomic: one edit of two missed, so neither applied; the later edit is the only change.
    expect(actions[4]?.refused).toContain("nothing changed");
    const run = actions[5];
    expect(run?.output).toContain("BLOCKED");
    expect(run?.output).not.toContain("REACHED");
    for (const secret of ["DATABASE_URL", "REDIS_URL", "TOKEN_ENCRYPTION_KEYS", "sandbox-model-key", "API_KEY"])
      expect(run?.output).not.toContain(secret);
    expect(run?.output).toContain("ABC");
    // What the model saw of that output on the next turn: no direction override, no escape sequence.
    const next = agentTurns().find((r) => r.agentTurn === 7);
    expect(next?.prompt).toContain("ABC");
    expect(next?.prompt).not.toContain("\u202e");
    expect(next?.prompt).not.toContain("\u001b");
    expect(output?.filesChanged.map((f) => f.filename)).toEqual([RULE]);
    expect(output?.filesChanged[0]?.content).toContain("const TRAILING = /[ \\t]+$/;");
  });

  it("Cancel stops the agent within 2 s while its sandboxed command runs", async () => {
    // A duration no other process on the host sleeps for: its process is this command's.
    const command = "sleep 37.25";
    /** Whether the agent's command runs now: its process is on this host (a sandbox's are seen from outside). */
    const running = () =>
      fs
        .readdirSync("/proc")
        .filter((d) => /^\d+$/.test(d))
        .some((pid) => {
          try {
            return fs.readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0").join(" ").trim() === command;
          } catch {
            return false; // ended meanwhile
          }
        });
    t.models.control.agentWith(isTrailing, [{ tool: "run", args: { command } }, submit]);
    const runId = await solve();
    await eventually(() => agentTurns().length > 0, { what: "the agent's first turn", timeout: 20_000 });
    expect(agentTurns()).toHaveLength(1);
    await eventually(running, { what: `"${command}" to run in the sandbox`, timeout: 20_000, interval: 20 });
    const asked = Date.now();
    const res = await t.api.runs[":id"].cancel.$post({ param: { id: runId } });
    expect(res.status).toBeLessThan(300);
    const { end } = await finished(runId);
    expect(end.event).toBe("cancelled");
    expect(Date.now() - asked).toBeLessThan(2_000);
    expect(agentTurns()).toHaveLength(1);
  });
});
