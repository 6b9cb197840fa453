import { UnrecoverableError } from "bullmq";
import type { SyncJob } from "../contract";
import type { WorkerContext } from "../context";

export async function syncPullRequests(
  _job: Extract<SyncJob, { kind: "pull-requests" }>,
  _ctx: WorkerContext,
  _signal: AbortSignal,
): Promise<{ count: number }> {
  throw new UnrecoverableError("pull-requests sync is not handled yet");
}
