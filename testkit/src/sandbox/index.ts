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
} from "./github/index";
export * from "./models/index";
export * from "./razorpay/index";
export { startSandboxes, type Sandboxes } from "./start-sandboxes";
