import type { GeneratedSolution } from "@fixloop/contract";
import { asRecord, contentText } from "./wire";

/** One scripted agent turn: the tool call the model makes. */
export interface AgentScriptStep {
  tool: string;
  args: Record<string, unknown>;
}

/** What a script sees of the conversation so far: the turn about to be answered (1-based) and every tool result. */
export interface AgentTurnView {
  turn: number;
  /** The first user message: the issue and step 3's files. */
  task: string;
  /** The tool results so far, oldest first (what the worker answered each call). */
  results: string[];
}

/** One turn's answer: a tool call, or several made at once (parallel tool calls). */
export type AgentScriptTurn = AgentScriptStep | AgentScriptStep[];

/** A scripted agent: a list of turns (the last one repeats) or a function of the conversation. */
export type AgentScript = AgentScriptTurn[] | ((view: AgentTurnView) => AgentScriptTurn);

/** An agent request offers the agent's tools (`run` and `submit` among them) rather than forcing one. */
export function isAgentRequest(body: unknown): boolean {
  const tools = asRecord(body)?.tools;
  if (!Array.isArray(tools)) return false;
  const names = tools.map((t) => {
    const r = asRecord(t);
    return asRecord(r?.function)?.name ?? r?.name;
  });
  return names.includes("run") && names.includes("submit");
}

/** The turn and tool results of an agent request, in either wire format. */
export function agentTurnView(body: unknown): AgentTurnView {
  const messages = (asRecord(body)?.messages as unknown[] | undefined) ?? [];
  let turn = 1;
  let task = "";
  const results: string[] = [];
  for (const m of messages) {
    const msg = asRecord(m);
    if (!msg) continue;
    if (msg.role === "assistant") turn++;
    else if (msg.role === "tool") results.push(contentText(msg.content));
    else if (msg.role === "user") {
      const blocks = Array.isArray(msg.content) ? msg.content : [];
      const toolResults = blocks.filter((b) => asRecord(b)?.type === "tool_result");
      if (toolResults.length) for (const b of toolResults) results.push(contentText(asRecord(b)?.content));
      else if (!task) task = contentText(msg.content);
    }
  }
  return { turn, task, results };
}

/** The tool calls a script makes on the turn `view` asks for (at least one). */
export function scriptSteps(script: AgentScript, view: AgentTurnView): AgentScriptStep[] {
  const turn = typeof script === "function" ? script(view) : script[Math.min(view.turn - 1, script.length - 1)];
  const steps = turn === undefined ? [] : Array.isArray(turn) ? turn : [turn];
  return steps.length ? steps : [{ tool: "submit", args: { analysis: "", proposedSolution: "", confidence: 0 } }];
}

/**
 * The stand-in's own agent when no script matches: it lists the root, opens the first file it
 * will change, makes the answer a single pass would have made one file per turn, and submits.
 */
export function agentFromSolution(solution: GeneratedSolution): AgentScriptStep[] {
  const first = solution.files[0]?.filename ?? "";
  return [
    { tool: "list_dir", args: { path: "." } },
    ...(first ? [{ tool: "open_file", args: { path: first } }] : []),
    ...solution.files.map((f) => ({
      tool: "edit",
      args: {
        path: f.filename,
        action: f.action,
        edits: f.edits,
        ...(f.content !== undefined ? { content: f.content } : {}),
      },
    })),
    {
      tool: "submit",
      args: {
        analysis: solution.analysis,
        proposedSolution: solution.proposedSolution,
        confidence: solution.confidence,
      },
    },
  ];
}
