/** What launchers and test stacks need to run workers in-process; the API uses `@fixloop/worker/contract` only. */
export { startWorkers, type RunningWorkers } from "./runtime";
export { loadWorkerEnv, WorkerEnv } from "./env";
export type { WorkerContext } from "./context";
export { sweepOnce } from "./pipeline/sweeper";
export { buildPrompt } from "./pipeline/prompt";
