import type { z } from "zod";
import type { issues, SolveRun, steps } from "@fixloop/db";
import type {
  FileChange,
  StepDetail,
  StepOutputs,
  PromptRecord,
  StepId,
  StepInput,
  StepOutput,
  TestsEvent,
  CandidateEvent,
  AgentEvent,
} from "@fixloop/contract";
import type { WorkerContext } from "../../context";
import type { RequestMeter } from "../../models/meter";

/** What a step gets besides the earlier steps' outputs: the run, its issue, and the processor's hooks. */
export interface StepEnv {
  run: SolveRun;
  issue: issues.IssueRecord;
  signal: AbortSignal;
  /** Solution being refined (refine runs): its current changes are the baseline. */
  baseline?: FileChange[];
  onModelRetry?: (info: { attempt: number; reason: string; waitMs: number }) => void;
  /** Appends a live `tests` (or `candidate`, or `agent`) event to the run's stream. */
  onTestsEvent?: (e: TestsEvent | CandidateEvent | AgentEvent) => Promise<unknown>;
  /** Announces what the running step has done so far (shown live in its expanded row). */
  report?: (detail: StepDetail) => Promise<void>;
  /** Receives what the model is about to see, before the cap check and the request. */
  onPrompt?: (record: PromptRecord) => Promise<void>;
  /** The ledger: every model request of the step is reserved against the caps before it is sent, then settled. */
  meter?: RequestMeter;
}

/** A finished step: its typed output, what it shows, and what its model requests cost. */
export interface StepOutcome<O extends object> extends steps.StepResult {
  output: O;
}

/** One solve step as data: the processor runs the list in order and knows no step by name. */
export interface PipelineStep<K extends StepId> {
  id: K;
  /** Picks what the step reads from the outputs so far; null when one of them is missing. */
  input(done: Partial<StepOutputs>): StepInput<K> | null;
  /** Decodes the step's stored output when a run resumes (or a refinement reuses it). */
  output: z.ZodType<StepOutput<K>>;
  run(input: StepInput<K>, env: StepEnv, ctx: WorkerContext): Promise<StepOutcome<StepOutput<K>>>;
}
export type AnyPipelineStep = { [K in StepId]: PipelineStep<K> }[StepId];
