import { UnrecoverableError } from "bullmq";
import { JsonColumnError, runs } from "@fixloop/db";
import { STEP_LABELS, type StepId } from "@fixloop/contract";
import { GithubError, isRetryable, toGithubError } from "@fixloop/runtime";
import { ModelError } from "../models";
import { GenerationError } from "./steps/generating/generating";
import { CostCapExceeded } from "./run.budget";

export class RunCancelled extends Error {
  constructor() {
    super("The run was cancelled");
    this.name = "RunCancelled";
  }
}

/** No candidate had positive evidence and the user (or the operator) asked not to be shown unverified solutions. */
export class RunUnverified extends Error {
  readonly code = "solution.unverified";
  constructor(reason: string) {
    super(
      `No solution presented: ${reason} Unverified solutions are not presented ("Do not present unverified solutions" in Settings).`,
    );
    this.name = "RunUnverified";
  }
}

export interface RunFailure {
  code: string;
  message: string;
  /** Whether another job attempt may succeed (crashes, GitHub hiccups); model errors were already retried by the model client. */
  retryable: boolean;
}

/** Turns whatever a step threw into the error the run ends with. */
export function classifyFailure(err: unknown, step: StepId | null): RunFailure {
  const where = step ? `${STEP_LABELS[step]}: ` : "";
  if (err instanceof ModelError) {
    return { code: err.code, message: `${where}${err.message}`, retryable: err.code === "model.cancelled" };
  }
  // The cap message stands on its own: it says what to do next.
  if (err instanceof CostCapExceeded) return { code: err.code, message: err.message, retryable: false };
  if (err instanceof RunUnverified) return { code: err.code, message: err.message, retryable: false };
  if (err instanceof runs.RefineSuperseded) return { code: err.code, message: err.message, retryable: false };
  if (err instanceof GenerationError) return { code: err.code, message: `${where}${err.message}`, retryable: false };
  if (err instanceof UnrecoverableError)
    return { code: "run.invalid", message: `${where}${err.message}`, retryable: false };
  const status = (err as { status?: unknown })?.status;
  if (err instanceof GithubError || typeof status === "number") {
    const gh = toGithubError(err, "Repository");
    return { code: gh.code, message: `${where}${gh.message}`, retryable: isRetryable(gh) };
  }
  const message = err instanceof Error ? err.message : String(err);
  // Data Postgres refuses (SQLSTATE class 22: encoding, range) or a JSON value of the wrong shape
  // fails the same way on every attempt: the run fails once, never retried nor charged again.
  const sqlState = (err as { code?: unknown })?.code;
  if (err instanceof JsonColumnError || (typeof sqlState === "string" && /^22[0-9A-Z]{3}$/.test(sqlState)))
    return { code: "run.invalid_data", message: `${where}${message}`, retryable: false };
  return { code: "run.step_failed", message: `${where}${message}`, retryable: true };
}
