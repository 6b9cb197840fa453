import type { AppRecord } from "./apps.records";
import type { GitStore } from "./git-store";
import type { FaultQueue, RateLimiter } from "./rate-limit";
import type { StateStore, TokenRecord } from "./state";
import type { Urls } from "./urls";
import type { WebhookSender } from "./webhooks.sender";

export interface RequestLogEntry {
  method: string;
  /** Path and query string; GitHub-style `/repositories/{id}/…` links are logged as `/repos/{owner}/{repo}/…`. */
  path: string;
  status: number;
  /** The token from the Authorization header, or null when absent. */
  token: string | null;
  at: number;
}

/** One update of a ref through the REST API, as asked (`force`) and as done (`fastForward`). */
export interface RefUpdateEntry {
  repo: string;
  ref: string;
  from: string;
  to: string;
  force: boolean;
  fastForward: boolean;
}

export interface SandboxDeps {
  store: StateStore;
  git: GitStore;
  urls: Urls;
  clientId: string;
  clientSecret: string;
  limiter: RateLimiter;
  faults: FaultQueue;
  requestLog: RequestLogEntry[];
  /** Every ref update (PATCH git/refs), oldest first. */
  refUpdates: RefUpdateEntry[];
  log: (line: string) => void;
  /** Signed webhook deliveries (none until a target is configured). */
  hooks: WebhookSender;
}

export type SandboxEnv = {
  Variables: {
    /** The token record when the request carried a valid token. */
    auth: TokenRecord | null;
    /** The GitHub App when the request carried a valid App JWT. */
    app: AppRecord | null;
    requestId: string;
    /** Scopes the route accepts, echoed as X-Accepted-OAuth-Scopes. */
    acceptedScopes: string;
  };
};
