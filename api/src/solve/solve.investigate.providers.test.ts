import { beforeAll, describe, expect, it } from "vitest";
import { insertIssue } from "@fixloop/testkit";
import { GeneratingOutput, type AgentEvent } from "@fixloop/contract";
import { steps } from "@fixloop/db";
import type { AgentScriptStep } from "@fixloop/testkit/sandbox";
import { readSse, type SseEvent } from "../../test/sse.testkit";
import { makeEnterprise } from "../../test/faults.testkit";
import { solveKit } from "../../test/solve.testkit";
import { pushFiles, TAB_TEST } from "../../test/tests-run.testkit";

const COMPATIBLE_MODEL = "qwen2.5-coder:7b";
const t = solveKit({
  workers: ["solve", "syntax-check"],
  env: (m) => ({
    ...m.env,
    OPENAI_COMPATIBLE_BASE_URL: m.compatibleBaseURL,
    OPENAI_COMPATIBLE_MODELS: COMPATIBLE_MODEL,
    AGENT_MAX_TURNS: "8",
    AGENT_RUN_TIMEOUT_SECONDS: "40",
  }),
});

let issueId = "";
beforeAll(async () => {
  await makeEnterprise(t.stack.db, t.userId); // a plan that offers OpenAI's and Anthropic's models
  issueId = (await insertIssue(t.stack.db, t.userId, { number: 3 })).id;
  pushFiles(t.stack, "hubot", "markdown-lint", { "test/trailing-tabs.test.js": TAB_TEST }, "Add a failing test");
});

const RULE = "src/rules/trailing-spaces.js";
const FIX = { search: "const TRAILING = / +$/;\n", replace: "const TRAILING = /[ \\t]+$/;\n" };
const runTest: AgentScriptStep = { tool: "run", args: { command: "node --test test/trailing-tabs.test.js" } };
/** Five turns; the first makes two tool calls at once, so two ids must be answered together. */
const SCRIPT: (AgentScriptStep | AgentScriptStep[])[] = [
  [
    { tool: "search", args: { query: "TRAILING" } },
    { tool: "open_file", args: { path: RULE, start: 1, end: 20 } },
  ],
  runTest,
  { tool: "edit", args: { path: RULE, action: "modify", edits: [FIX] } },
  runTest,
  {
    tool: "submit",
    args: { analysis: "TRAILING only matches spaces.", proposedSolution: "Match tabs too.", confidence: 80 },
  },
];

/**
 * Each provider's native tool calling, through its SDK and its wire format on the stand-in: chat
 * completions `tool_calls` answered by `tool` messages (OpenAI, an OpenAI-compatible server) and
 * Messages `tool_use` blocks answered by `tool_result` blocks (Anthropic). The stand-in refuses a
 * conversation that breaks the provider's rules (a call not answered, an id it never made, a result
 * after text), as the provider does with a 400.
 */
describe.each([
  { modelId: "gpt-4.1", provider: "openai", path: "/openai/v1/chat/completions", stop: "tool_calls" },
  { modelId: "claude-haiku-4-5", provider: "anthropic", path: "/anthropic/v1/messages", stop: "tool_use" },
  { modelId: COMPATIBLE_MODEL, provider: "openai", path: "/compatible/v1/chat/completions", stop: "tool_calls" },
])("Investigate with $modelId ($path)", ({ modelId, provider, path, stop }) => {
  it("explores with parallel calls, reproduces, edits, tests and submits; ids echoed; every turn reserved and settled", async () => {
    t.models.control.agentWith((task) => task.includes("trailing-spaces"), SCRIPT);
    const res = await t.generate({ issueId, modelId, mode: "investigate", solveAgain: true });
    expect(res.status).toBe(202);
    const { runId } = await res.json();
    const events = await readSse(await t.events(runId));
    const end = events.at(-1) as SseEvent;
    expect(end.event, JSON.stringify(end.data)).toBe("completed");

    // The trajectory: both calls of the first turn carried out, the reproduction failing then passing.
    const agent = events.filter((e) => e.event === "agent").map((e) => e.data as AgentEvent);
    const actions = agent.flatMap((e) => (e.action ? [e.action] : []));
    expect(actions.map((a) => [a.turn, a.tool])).toEqual([
      [1, "search"],
      [1, "open_file"],
      [2, "run"],
      [3, "edit"],
      [4, "run"],
      [5, "submit"],
    ]);
    expect(actions.every((a) => !a.refused)).toBe(true);
    expect(actions[0]?.output).toContain(`${RULE}:`);
    expect(actions[1]?.output).toContain("const TRAILING = / +$/;");
    const [before, after] = actions.filter((a) => a.tool === "run");
    expect(before?.exitCode).not.toBe(0);
    expect(after?.exitCode).toBe(0);
    expect(agent.at(-1)?.ended).toEqual({ by: "submitted", turns: 5 });
    const stored = (await steps.load(t.stack.db, runId, ["generating"])).get("generating");
    const output = GeneratingOutput.parse(stored?.output);
    expect(output.model).toMatchObject({ id: modelId });
    expect(output.filesChanged.map((f) => f.filename)).toEqual([RULE]);
    expect(output.filesChanged[0]?.content).toContain("const TRAILING = /[ \\t]+$/;");

    // On the wire: every turn went to this provider's endpoint; each turn answered exactly the ids
    // the previous answer made (two at once after the parallel turn); each answer stopped for tools.
    const turns = t.models.control.requests.filter((r) => r.agentTurn !== undefined);
    expect(turns.map((r) => r.agentTurn)).toEqual([1, 2, 3, 4, 5]);
    for (const r of turns) expect(r).toMatchObject({ provider, path, model: modelId });
    expect(turns[0]?.toolIds?.answered).toEqual([]);
    expect(turns[0]?.toolIds?.made).toHaveLength(2);
    for (let k = 1; k < turns.length; k++) expect(turns[k]?.toolIds?.answered).toEqual(turns[k - 1]?.toolIds?.made);
    expect(turns.every((r) => r.toolIds?.stop === stop)).toBe(true);

    // The ledger: one request per turn, each reserved and settled at what the step reports.
    const rows = await t.stack.db
      .selectFrom("model_requests")
      .select(["purpose", "state", "model_id", "tokens_in", "tokens_out", "cost_usd"])
      .where("run_id", "=", runId)
      .where("purpose", "like", "agent turn%")
      .orderBy("created_at")
      .execute();
    expect(rows.map((r) => r.purpose)).toEqual([1, 2, 3, 4, 5].map((n) => `agent turn ${n}`));
    expect(rows.every((r) => r.state === "settled" && r.model_id === modelId)).toBe(true);
    const trajectory = output.agent?.[0];
    expect(trajectory).toMatchObject({ endedBy: "submitted", turns: 5 });
    expect(rows.reduce((a, r) => a + r.tokens_in, 0)).toBe(trajectory?.tokensIn);
    expect(rows.reduce((a, r) => a + r.tokens_out, 0)).toBe(trajectory?.tokensOut);
    expect(trajectory?.tokensIn).toBeGreaterThan(0);
    expect(rows.reduce((a, r) => a + Number(r.cost_usd), 0)).toBeCloseTo(output.costUsd, 6);
  });
});

/** A setup that installs a tool and stamps the time it ran: what `run` sees of it shows it ran once. */
const FIXLOOP_YML = `test: node --test test/
setup: >-
  mkdir -p node_modules/.bin && date +%s%N > node_modules/.stamp &&
  printf '#!/bin/sh\\necho linter-ready\\n' > node_modules/.bin/linter && chmod +x node_modules/.bin/linter
`;

describe("Investigate's run starts from the tree the tests step prepares", () => {
  it("a command needing the repository's setup works; setup ran once; a command cannot change the next one's tree", async () => {
    pushFiles(t.stack, "hubot", "markdown-lint", { ".fixloop.yml": FIXLOOP_YML }, "Set up a linter before the tests");
    const tool = "node_modules/.bin/linter && cat node_modules/.stamp";
    t.models.control.agentWith(
      (task) => task.includes("trailing-spaces"),
      [
        { tool: "run", args: { command: `${tool} && rm -rf node_modules` } },
        { tool: "run", args: { command: tool } },
        SCRIPT[2] as AgentScriptStep,
        SCRIPT[4] as AgentScriptStep,
      ],
    );
    const res = await t.generate({ issueId, mode: "investigate", solveAgain: true });
    expect(res.status).toBe(202);
    const { runId } = await res.json();
    const events = await readSse(await t.events(runId));
    const end = events.at(-1) as SseEvent;
    expect(end.event, JSON.stringify(end.data)).toBe("completed");
    const runs = events
      .filter((e) => e.event === "agent")
      .flatMap((e) => ((e.data as AgentEvent).action?.tool === "run" ? [(e.data as AgentEvent).action] : []));
    expect(runs).toHaveLength(2);
    const [first, second] = runs;
    expect(first?.exitCode, first?.output).toBe(0);
    expect(first?.output).toContain("linter-ready");
    expect(first?.output).toContain("ran once on the base tree, as for the tests");
    expect(second?.exitCode, second?.output).toBe(0);
    expect(second?.output).toContain("linter-ready");
    expect(second?.output).not.toContain("ran once");
    const stamp = (o = "") => /^\d{12,}$/m.exec(o)?.[0];
    expect(stamp(first?.output)).toBeDefined();
    expect(stamp(second?.output)).toBe(stamp(first?.output));
  });
});
