import { type FileChange } from "@fixloop/contract";
import type { AppDeps } from "../deps";
import { runJob } from "../jobs/jobs.run";

/**
 * Parse errors of a change's files, found by a worker (the API process loads no parsers). null when
 * no worker answered within JOB_WAIT_SECONDS: the edit is then saved marked "syntax not checked".
 */
export async function checkSyntax(deps: AppDeps, files: FileChange[]): Promise<Record<string, string[]> | null> {
  const parsed = files
    .filter((f) => f.action !== "delete")
    .map(({ filename, content, originalContent }) => ({ filename, content, originalContent }));
  const out = await runJob(
    deps,
    "syntax-check",
    { files: parsed },
    // Nobody waits for a retry, and the answer is read once.
    { attempts: 1, removeOnComplete: { age: 60 }, removeOnFail: { age: 3600 } },
  );
  if (out.done) return out.value.syntaxErrors;
  // A check nobody took would only be read by nobody later.
  await deps.queues.syntaxCheck.remove(out.jobId).catch(() => 0);
  return null;
}
