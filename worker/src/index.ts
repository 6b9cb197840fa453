/** What launchers and test stacks need to run workers in-process; the API never imports the worker (it shares `@fixloop/contract` and `@fixloop/runtime` with it). */
export { startWorkers, type RunningWorkers, type StallTimings } from "./runtime";
export type { BwrapOptions } from "./tests-run/sandbox.bwrap";
export { loadWorkerEnv, WorkerEnv } from "./env";
export type { WorkerContext } from "./context";
export { sweepOnce } from "./pipeline/sweeper";
export { pollPullRequests, schedulePullRequestPoll } from "./sync/pull-requests.poll";
export {
  catchUpInstallations,
  INSTALLATIONS_CATCH_UP_JOB,
  queueInstallationsCatchUp,
} from "./sync/installations.catch-up";
// How a sync stores a GitHub repository: test stacks store theirs the same way.
export { upsertRepository, type GithubRepo } from "./sync/repositories.store";
export { analyzing } from "./pipeline/steps/analyzing/analyzing";
export { buildPrompt, type PromptInput } from "./pipeline/steps/generating/prompt";
export { applyGeneratedFiles } from "./pipeline/steps/generating/apply-edits";
// The pull-request job, which the API's full-stack tests drive directly to hit races and stop points.
export { branchName, openPullRequest } from "./pull-requests/pull-requests.job";
export { processPullRequest } from "./processors/pull-request.processor";
export { generateSolution } from "./models";
export { dedupeCandidates } from "./pipeline/steps/generating/candidates.dedup";
export { evidenceOf } from "./pipeline/steps/validating/candidates.judge";
export { rankCandidates } from "./pipeline/steps/validating/candidates.rank";
export { abstain } from "./pipeline/steps/validating/abstention";
export { askReproduction } from "./pipeline/steps/validating/reproduction.request";
// Step 3's optional model stages, which the bench measures on its cross-validated ranking.
export { embeddingRerank, type Embedder, type RerankCandidate } from "./localize/embed-rerank";
export { embeddingsSettings, type EmbeddingsSettings, openAiEmbedder } from "./models/embeddings.client";
export type { Hold, RequestMeter, Settlement } from "./models/meter";
export { RERANK_CANDIDATES, rerankWithModel } from "./pipeline/steps/dependencies/rerank-model";
