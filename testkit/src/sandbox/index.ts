export {
  startGithubSandbox,
  SANDBOX_CLIENT_ID,
  SANDBOX_CLIENT_SECRET,
  type GithubSandbox,
  type GithubSandboxOptions,
  type GithubSandboxControl,
  type NewIssue,
  type SandboxPull,
  type RequestLogEntry,
  type FaultRule,
  type WebhookDelivery,
  WebhookSender,
} from "./github/index";
export * from "./models/index";
export * from "./razorpay/index";
export { startSandboxes, type Sandboxes } from "./start-sandboxes";
// The seeded repositories and the model stand-in's canned answers, for the tests that hold them against the worker's prompt.
export { SEED_REPOS, SEEDED_FIXES, seedFiles } from "./github/seed";
export { fallbackSolution, promptFiles, seededSolution } from "./models/answers";
export { latestFeedback, refinedSolution } from "./models/answers.refine";
