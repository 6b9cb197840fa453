import type { GeneratedSolution } from "@fixloop/contract";
import type { SandboxLimits, SandboxRunner } from "../../../../tests-run/sandbox";
import { sandboxRunUid } from "../../../../tests-run/sandbox";
import { handToSandbox, type WorkspaceCache } from "../../../../tests-run/workspace";
import { checkoutWalled } from "../../../../tests-run/workspace.walled-copy";
import { scrubHostPaths } from "../../../../tests-run/workspace.cleanup";
import type { AgentToolCall } from "../../../../models/agent.wire";
import { numberLines } from "../prompt";
import { untrustedOutput } from "./agent.output";
import { PathRefused, repoPath } from "./agent.paths";
import { searchCopy } from "./agent.search";
import type { AgentSetUp } from "./agent.setup";
import type { WorkingCopy } from "./agent.workspace";

/** Characters of one tool result the next turn sees. */
export const TOOL_OUTPUT_CHARS = 8_000;
const OPEN_LINES = 200;

export interface ToolDeps {
  copy: WorkingCopy;
  /** null: the sandbox is off, so `run` is refused. */
  runner: SandboxRunner | null;
  cache: WorkspaceCache;
  limits: SandboxLimits;
  /** Time limit of one command. */
  runTimeoutMs: number;
  /** The set-up tree commands start from (the base tree when absent). */
  setUp?: AgentSetUp;
  signal: AbortSignal;
}

/** What one tool call did, for the model (content) and for the trajectory. */
export interface ToolOutcome {
  target: string;
  content: string;
  refused?: string;
  exitCode?: number | null;
  timedOut?: boolean;
  diff?: string;
  submitted?: { analysis: string; proposedSolution: string; confidence: number };
}

const text = (v: unknown, max = 500): string => (typeof v === "string" ? v : JSON.stringify(v ?? "")).slice(0, max);

/** Runs one tool call; a wall's refusal is an answer to the model, never a half-done action. */
export async function runTool(call: AgentToolCall, deps: ToolDeps): Promise<ToolOutcome> {
  const target = targetOf(call);
  if (call.badArgs) return { target, content: call.badArgs, refused: call.badArgs };
  try {
    return { target, ...(await dispatch(call, deps)) };
  } catch (err) {
    if (!(err instanceof PathRefused)) throw err;
    return { target, content: err.message, refused: err.message };
  }
}

function targetOf(call: AgentToolCall): string {
  const a = call.args;
  switch (call.name) {
    case "search":
      return `${text(a.query, 200)}${a.path ? ` in ${text(a.path, 200)}` : ""}`;
    case "open_file":
      return `${text(a.path, 300)}${a.start || a.end ? `:${text(a.start ?? 1, 10)}-${text(a.end ?? "", 10)}` : ""}`;
    case "list_dir":
      return text(a.path ?? ".", 300) || ".";
    case "run":
      return text(a.command, 500);
    case "edit":
      return `${text(a.action, 10)} ${text(a.path, 300)}`;
    default:
      return "";
  }
}

async function dispatch(call: AgentToolCall, deps: ToolDeps): Promise<Omit<ToolOutcome, "target">> {
  const a = call.args;
  switch (call.name) {
    case "search":
      return { content: untrustedOutput(await searchCopy(deps.copy, a), TOOL_OUTPUT_CHARS) };
    case "open_file":
      return { content: await openFile(deps.copy, a) };
    case "list_dir": {
      const rel = repoPath(a.path ?? "");
      const entries = await deps.copy.list(rel);
      if (!entries) throw new PathRefused(`${rel || "."} does not exist`);
      const shown = entries.slice(0, 300);
      const more = entries.length > shown.length ? `\n(${entries.length - shown.length} more)` : "";
      return { content: untrustedOutput(shown.join("\n") + more || "(empty)", TOOL_OUTPUT_CHARS) };
    }
    case "run":
      return runCommand(deps, a.command);
    case "edit":
      return editFile(deps.copy, a);
    case "submit":
      return submit(a);
    default:
      throw new PathRefused(
        `Unknown tool ${text(call.name, 64)}: use search, open_file, list_dir, run, edit or submit`,
      );
  }
}

async function openFile(copy: WorkingCopy, a: Record<string, unknown>): Promise<string> {
  const rel = repoPath(a.path);
  if (!rel) throw new PathRefused("open_file needs a file path");
  const content = await copy.read(rel);
  if (content === null) throw new PathRefused(`${rel} does not exist`);
  const lines = content.split("\n");
  const start = Math.max(1, Number.isInteger(a.start) ? Number(a.start) : 1);
  const end = Math.min(lines.length, start + OPEN_LINES - 1, Number.isInteger(a.end) ? Number(a.end) : Infinity);
  const numbered = numberLines(lines.join("\n"))
    .split("\n")
    .slice(start - 1, end)
    .join("\n");
  const rest = end < lines.length ? `\n(lines ${end + 1}-${lines.length} not shown)` : "";
  return untrustedOutput(`${rel} (lines ${start}-${end} of ${lines.length})\n${numbered}${rest}`, TOOL_OUTPUT_CHARS);
}

async function editFile(copy: WorkingCopy, a: Record<string, unknown>): Promise<Omit<ToolOutcome, "target">> {
  const action = a.action === "create" || a.action === "delete" ? a.action : "modify";
  const edits = Array.isArray(a.edits)
    ? a.edits.flatMap((e: unknown) => {
        const r = e as { search?: unknown; replace?: unknown } | null;
        return typeof r?.search === "string" && typeof r.replace === "string"
          ? [{ search: r.search, replace: r.replace }]
          : [];
      })
    : [];
  if (action === "modify" && !edits.length) throw new PathRefused("modify needs edits: [{search, replace}]");
  const file: GeneratedSolution["files"][number] = {
    filename: typeof a.path === "string" ? a.path : "",
    action,
    edits,
    ...(typeof a.content === "string" ? { content: a.content } : {}),
  };
  const { filename, diff } = await copy.edit(file);
  return { content: `Edited ${filename}:\n${untrustedOutput(diff, TOOL_OUTPUT_CHARS - 100)}`, diff };
}

function submit(a: Record<string, unknown>): Omit<ToolOutcome, "target"> {
  const confidence = typeof a.confidence === "number" && Number.isFinite(a.confidence) ? a.confidence : 50;
  return {
    content: "Submitted.",
    submitted: {
      analysis: text(a.analysis, 20_000),
      proposedSolution: text(a.proposedSolution, 20_000),
      confidence: Math.min(100, Math.max(0, confidence)),
    },
  };
}

/**
 * A command in the tests' sandbox (offline, the tests' limits, its own time limit) on a private
 * copy of the base tree as the tests see it (its setup done) with the edits written in; the copy is
 * removed after.
 */
async function runCommand(deps: ToolDeps, command: unknown): Promise<Omit<ToolOutcome, "target">> {
  if (typeof command !== "string" || !command.trim()) throw new PathRefused("run needs a command");
  if (!deps.runner) throw new PathRefused("Commands cannot run: the sandbox is off on this server");
  const source = deps.setUp ? await deps.setUp.forCommand(deps.signal) : { dir: deps.copy.root, note: null };
  const copy = await checkoutWalled(deps.cache, source.dir, deps.limits.diskBytes);
  try {
    await deps.copy.materialize(copy.dir);
    const uid = sandboxRunUid();
    await handToSandbox(copy.dir, uid);
    const r = await deps.runner.run({
      workspace: copy.dir,
      command,
      network: false,
      limits: { ...deps.limits, timeoutMs: Math.min(deps.limits.timeoutMs, deps.runTimeoutMs) },
      signal: deps.signal,
      uid,
    });
    const output = scrubHostPaths(r.output, [deps.cache.root, copy.dir, source.dir]);
    const status = r.cancelled
      ? "cancelled"
      : r.timedOut
        ? `timed out after ${Math.round(deps.runTimeoutMs / 1000)} s`
        : `exit code ${r.exitCode}`;
    return {
      content: untrustedOutput(`${source.note ? `${source.note}\n\n` : ""}${status}\n${output}`, TOOL_OUTPUT_CHARS),
      exitCode: r.exitCode,
      ...(r.timedOut ? { timedOut: true } : {}),
    };
  } finally {
    await copy.dispose().catch(() => undefined);
  }
}
