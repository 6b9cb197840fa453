import type { AgentAction, AgentEnd, AgentEvent, ModelInfo, ModelsConfig } from "@fixloop/contract";
import { agentTurn } from "../../../../models/agent.turn";
import type { AgentMessage, AgentToolResult } from "../../../../models/agent.wire";
import type { RequestMeter } from "../../../../models/meter";
import { CostCapExceeded } from "../../../run.budget";
import { RunCancelled } from "../../../run.errors";
import { tailOf } from "./agent.output";
import { AGENT_SYSTEM_PROMPT, AGENT_TOOLS } from "./agent.tools.schema";
import { runTool, type ToolDeps } from "./agent.tools";

export interface AgentLoopInput {
  models: ModelsConfig;
  model: ModelInfo;
  /** The first message: the issue and step 3's ranking (the agent's starting context). */
  task: string;
  tools: ToolDeps;
  maxTurns: number;
  wallMs: number;
  /** The run's signal: Cancel stops the model call and the sandboxed command in flight. */
  signal: AbortSignal;
  meter?: RequestMeter;
  maxOutputTokens: number;
  /** The candidate this agent writes (1 for a single one). */
  n: number;
  emit?: (e: AgentEvent) => Promise<unknown>;
  onRetry?: (info: { attempt: number; reason: string; waitMs: number }) => void;
}

export interface AgentLoopResult {
  endedBy: AgentEnd;
  turns: number;
  actions: AgentAction[];
  submitted?: { analysis: string; proposedSolution: string; confidence: number };
  tokensIn: number;
  tokensOut: number;
  usd: number;
  toolMs: number;
  wallMs: number;
  /** The cap refusal that ended it, when one did. */
  cap?: CostCapExceeded;
}

/** Actions kept in the trajectory (the stored output stays bounded however long the loop ran). */
const MAX_ACTIONS = 200;
const now = () => new Date().toISOString();

/**
 * Step 4's Investigate loop: each turn the model sees the conversation and calls tools; every call
 * is carried out by the worker behind its walls and answered. It ends when the model submits, or
 * at the first limit (turns, the run's or month's cap on the next turn's reservation, the wall
 * clock), keeping the edits made so far. Cancel throws RunCancelled.
 */
export async function agentLoop(input: AgentLoopInput): Promise<AgentLoopResult> {
  const started = Date.now();
  const deadline = started + input.wallMs;
  const messages: AgentMessage[] = [{ role: "user", text: input.task }];
  const actions: AgentAction[] = [];
  const spent = { tokensIn: 0, tokensOut: 0, usd: 0 };
  let toolMs = 0;
  let seq = 0;
  let silent = 0;
  const emit = async (e: Omit<AgentEvent, "type" | "n" | "seq" | "at">) =>
    input.emit?.({ type: "agent", n: input.n, seq: seq++, at: now(), ...e });
  const end = async (
    endedBy: AgentEnd,
    turns: number,
    extra: Partial<AgentLoopResult> = {},
  ): Promise<AgentLoopResult> => {
    await emit({ ended: { by: endedBy, turns } });
    return { endedBy, turns, actions, ...spent, toolMs, wallMs: Date.now() - started, ...extra };
  };
  for (let turn = 1; ; turn++) {
    if (input.signal.aborted) throw new RunCancelled();
    if (turn > input.maxTurns) return end("max_turns", turn - 1);
    if (Date.now() >= deadline) return end("wall_clock", turn - 1);
    const clock = AbortSignal.any([input.signal, AbortSignal.timeout(Math.max(1, deadline - Date.now()))]);
    const left = input.maxTurns - turn;
    let reply;
    try {
      reply = await agentTurn(input.models, {
        model: input.model,
        system: AGENT_SYSTEM_PROMPT,
        messages,
        tools: AGENT_TOOLS,
        maxOutputTokens: input.maxOutputTokens,
        signal: clock,
        ...(input.meter ? { meter: input.meter } : {}),
        purpose: `agent turn ${turn}${input.n > 1 ? ` (candidate ${input.n})` : ""}`,
        ...(input.onRetry ? { onRetry: input.onRetry } : {}),
      });
    } catch (err) {
      if (input.signal.aborted) throw new RunCancelled();
      if (clock.aborted) return end("wall_clock", turn - 1);
      if (err instanceof CostCapExceeded)
        return end(err.code === "cost.run_cap_exceeded" ? "run_cap" : "monthly_cap", turn - 1, { cap: err });
      throw err;
    }
    spent.tokensIn += reply.tokensIn;
    spent.tokensOut += reply.tokensOut;
    spent.usd += reply.usd;
    messages.push({ role: "assistant", text: reply.text, calls: reply.calls });
    if (!reply.calls.length) {
      if (++silent >= 2) return end("no_tool_call", turn);
      messages.push({
        role: "user",
        text: "Answer by calling one of the tools (submit when your edits fix the issue).",
      });
      continue;
    }
    silent = 0;
    const results: AgentToolResult[] = [];
    let submitted: AgentLoopResult["submitted"];
    for (const call of reply.calls) {
      if (input.signal.aborted) throw new RunCancelled();
      const t0 = Date.now();
      const toolSignal = AbortSignal.any([input.signal, AbortSignal.timeout(Math.max(1, deadline - t0))]);
      const out = await runTool(call, { ...input.tools, signal: toolSignal });
      if (input.signal.aborted) throw new RunCancelled();
      const durationMs = Date.now() - t0;
      toolMs += durationMs;
      let content = out.content;
      if (out.submitted && !input.tools.copy.edited) {
        content = "Nothing is edited yet: change the files with edit before you submit.";
      } else if (out.submitted) submitted ??= out.submitted;
      results.push({ id: call.id, name: call.name, content, ...(out.refused ? { isError: true } : {}) });
      const action: AgentAction = {
        turn,
        tool: call.name.slice(0, 64),
        target: out.target.slice(0, 500),
        ...(out.refused ? { refused: out.refused.slice(0, 500) } : {}),
        ...(out.exitCode !== undefined ? { exitCode: out.exitCode } : {}),
        ...(out.timedOut ? { timedOut: true } : {}),
        output: tailOf(content, 4000),
        ...(out.diff ? { diff: tailOf(out.diff, 8000) } : {}),
        durationMs,
      };
      if (actions.length < MAX_ACTIONS) actions.push(action);
      await emit({ action });
    }
    if (submitted) return end("submitted", turn, { submitted });
    messages.push({
      role: "tool",
      results,
      ...(left <= 3 ? { note: `${left} turn(s) left: submit soon; your edits so far are kept.` } : {}),
    });
  }
}
