import { UnrecoverableError } from "bullmq";
import type { SyncJob } from "../contract";
import type { WorkerContext } from "../context";

export async function syncRepositories(
  _job: Extract<SyncJob, { kind: "repositories" }>,
  _ctx: WorkerContext,
  _signal: AbortSignal,
): Promise<{ count: number }> {
  throw new UnrecoverableError("repositories sync is not handled yet");
}
