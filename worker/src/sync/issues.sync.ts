import { UnrecoverableError } from "bullmq";
import type { SyncJob } from "../contract";
import type { WorkerContext } from "../context";

export async function syncIssues(
  _job: Extract<SyncJob, { kind: "issues" }>,
  _ctx: WorkerContext,
  _signal: AbortSignal,
): Promise<{ count: number }> {
  throw new UnrecoverableError("issues sync is not handled yet");
}
