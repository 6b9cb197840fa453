export { bwrapRunner, bwrapArgv } from "./sandbox.bwrap";
export { runProcessGroup } from "./sandbox.process";
export { HOST_ENV, type SandboxLimits, type SandboxRunner } from "./sandbox";
export { baseTree, checkout, handToSandbox, sweepWorkspaces, type WorkspaceCache } from "./workspace";
export { bwrapAvailable, sandboxBackend } from "./tests.config";
export { parseAllowedHosts } from "./sandbox.egress.policy";
