import { UnrecoverableError } from "bullmq";
import { isRetryable, jobFailed, toGithubError } from "@fixloop/runtime";

/**
 * Runs a job body, turning GitHub failures into job failures whose reason carries our error code.
 * Only rate limits and outages are retried by BullMQ; anything else fails at once.
 */
export async function asGithubJob<T>(what: string, body: () => Promise<T>): Promise<T> {
  try {
    return await body();
  } catch (err) {
    if (err instanceof UnrecoverableError) throw err;
    const gh = toGithubError(err, what);
    if (gh.code === "github.unavailable" && !(err as { status?: number }).status) throw err;
    throw jobFailed({ code: gh.code, message: gh.message, retryable: isRetryable(gh) }, { cause: err });
  }
}
