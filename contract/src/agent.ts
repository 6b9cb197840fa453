import { z } from "zod";
import { CandidateCount } from "./candidates";

/**
 * How step 4 writes a fix: `single`, one request with step 3's files (and one repair round), or
 * `investigate`, a bounded tool-use loop that searches, opens files, runs commands in the sandbox
 * and edits a working copy before it submits.
 */
export const RunMode = z.enum(["single", "investigate"]);
export type RunMode = z.infer<typeof RunMode>;
export const DEFAULT_RUN_MODE: RunMode = "single";

/** A run input's `mode`, read leniently (anything else: single). */
export function runModeOf(stored: unknown): RunMode {
  const v = RunMode.safeParse((stored as { mode?: unknown } | null)?.mode);
  return v.success ? v.data : DEFAULT_RUN_MODE;
}

/** The tools the agent may call; every one is enforced by the worker, not by the prompt. */
export const AgentToolName = z.enum(["search", "open_file", "list_dir", "run", "edit", "submit"]);
export type AgentToolName = z.infer<typeof AgentToolName>;

/** Why the loop ended: it submitted, or a limit stopped it (it keeps the edits it made). */
export const AgentEnd = z.enum(["submitted", "max_turns", "run_cap", "monthly_cap", "wall_clock", "no_tool_call"]);
export type AgentEnd = z.infer<typeof AgentEnd>;

export const AGENT_END_TEXT: Record<AgentEnd, string> = {
  submitted: "the agent submitted its fix",
  max_turns: "the agent reached its turn limit (AGENT_MAX_TURNS)",
  run_cap: "the next turn did not fit the run's cost cap",
  monthly_cap: "the next turn did not fit the monthly cost cap",
  wall_clock: "the agent reached its wall-clock limit",
  no_tool_call: "the model answered without calling a tool",
};

/** One action of the agent as the solve page shows it (live, then on the finished solution). */
export const AgentAction = z.object({
  turn: z.number().int().min(1),
  tool: z.string().max(64),
  /** What it acted on, one line: the query, the path and range, the command. */
  target: z.string().max(500),
  /** Refused by a wall: why (nothing was done). */
  refused: z.string().max(500).optional(),
  exitCode: z.number().int().nullable().optional(),
  timedOut: z.boolean().optional(),
  /** The end of what the tool answered (cleaned, bounded). */
  output: z.string().max(4000),
  /** An edit as a unified diff. */
  diff: z.string().max(8000).optional(),
  durationMs: z.number().int().min(0),
});
export type AgentAction = z.infer<typeof AgentAction>;

/** A live agent action or its end, appended to the run's event stream. */
export const AgentEvent = z.object({
  type: z.literal("agent"),
  /** The candidate whose agent acted (1 for a single one). */
  n: CandidateCount,
  /** Position of this event in the agent's trajectory (de-duplicates a retried step's events). */
  seq: z.number().int().min(0),
  action: AgentAction.optional(),
  ended: z.object({ by: AgentEnd, turns: z.number().int().min(0) }).optional(),
  at: z.string(),
});
export type AgentEvent = z.infer<typeof AgentEvent>;

/** What an Investigate run's agent did, stored with step 4's output and shown beside "What the model saw". */
export const AgentTrajectory = z.object({
  n: CandidateCount,
  endedBy: AgentEnd,
  turns: z.number().int().min(0),
  actions: z.array(AgentAction),
  /** Time spent in the tools (the sandbox's commands included), and the loop's wall time. */
  toolMs: z.number().int().min(0),
  wallMs: z.number().int().min(0),
  tokensIn: z.number(),
  tokensOut: z.number(),
});
export type AgentTrajectory = z.infer<typeof AgentTrajectory>;

/** Decodes a stored trajectory list leniently (an older run has none). */
export function agentTrajectoriesOf(raw: unknown): AgentTrajectory[] {
  const r = z.array(AgentTrajectory).safeParse(raw);
  return r.success ? r.data : [];
}

export const AGENT_MAX_TURNS_DEFAULT = 30;
/** Typical Investigate turn for the estimate: the conversation grows with each turn's tool output. */
export const AGENT_TYPICAL_TURNS = { low: 6, high: AGENT_MAX_TURNS_DEFAULT } as const;
export const AGENT_TURN_PROMPT_TOKENS = { low: 6_000, high: 40_000 } as const;
export const AGENT_TURN_OUTPUT_TOKENS = 1_024;
