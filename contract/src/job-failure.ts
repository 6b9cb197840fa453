import { z } from "zod";

/** Every code a sync, fork, pull-request or syntax-check job may fail with. The API maps each to an HTTP status once. */
export const JOB_ERROR_CODES = [
  "github.not_found",
  "github.rate_limited",
  "github.unauthorized",
  "github.not_connected",
  "github.authorization_required",
  "github.forbidden",
  "github.invalid",
  "github.unavailable",
  "github.not_an_issue",
  "github.fork_timeout",
  "pull_request.not_approved",
  "pull_request.solution_not_found",
  "pull_request.path_denied",
  "pull_request.too_large",
  "pull_request.symlink",
  "pull_request.empty",
  "pull_request.binary_content",
  "pull_request.conflict_open",
  "pull_request.conflict_duplicate",
  "github.not_your_repository",
  "github.reauthorize_required",
  "github.installation_suspended",
  "contributions.blocked",
  "contributions.acknowledgement_required",
  "pull_request.no_write_access",
  "pull_request.conflict",
  "pull_request.no_fork",
  "pull_request.not_a_fork",
  "pull_request.base_branch_gone",
  "pull_request.branch_moved",
  "pull_request.not_open",
  "pull_request.issue_gone",
  "repository.access_lost",
  "job.invalid_payload",
  "syntax_check.failed",
] as const;
export type JobErrorCode = (typeof JOB_ERROR_CODES)[number];

/** Why a job failed, as it crosses BullMQ: JSON in the job's failed reason. */
export const JobFailure = z.object({ code: z.enum(JOB_ERROR_CODES), message: z.string(), retryable: z.boolean() });
export type JobFailure = z.infer<typeof JobFailure>;

/** Reads a job's failed reason back; null when the job died of something else (a crash, a timeout). */
export function parseJobFailure(reason: string | undefined): JobFailure | null {
  try {
    const parsed = JobFailure.safeParse(JSON.parse(reason ?? ""));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}
