export type ModelErrorCode =
  | "model.rate_limited"
  | "model.unavailable"
  | "model.malformed_output"
  | "model.cancelled"
  | "model.auth"
  | "model.bad_request";

const RETRYABLE: ReadonlySet<ModelErrorCode> = new Set(["model.rate_limited", "model.unavailable"]);

/** A model call that failed for good; `retryable` says whether a later attempt may succeed. */
export class ModelError extends Error {
  readonly code: ModelErrorCode;
  readonly retryable: boolean;
  /** Tokens the failed call still consumed (e.g. the rejected answers before malformed_output). */
  tokensIn = 0;
  tokensOut = 0;
  /** The provider answered with an error status (so its cost is known: what it reports, else nothing). */
  answered = false;
  constructor(code: ModelErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "ModelError";
    this.code = code;
    this.retryable = RETRYABLE.has(code);
  }
}

/** A failure worth retrying after a wait (429, 5xx, connection trouble). */
export class TransientFailure extends Error {
  /** The provider answered with an error status (429, 5xx), rather than not at all. */
  answered = false;
  constructor(
    readonly code: "model.rate_limited" | "model.unavailable",
    readonly reason: string,
    readonly retryAfterMs: number | undefined,
    options?: { cause?: unknown },
  ) {
    super(reason, options);
    this.name = "TransientFailure";
  }
}
