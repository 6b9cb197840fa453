import { createHash } from "node:crypto";
import Bottleneck from "bottleneck";
import { Octokit } from "@octokit/rest";
import { retry } from "@octokit/plugin-retry";
import { throttling } from "@octokit/plugin-throttling";
import type { Logger } from "pino";
import { createAppAuth } from "@octokit/auth-app";

/** What an installation client authenticates with: the App, the installation, and how far its tokens reach. */
export interface InstallationAuth {
  appId: string;
  privateKey: string;
  installationId: number;
  /** Narrows every token to these repositories (names under the installation's account). */
  repositoryNames?: string[];
  /** Narrows every token to these permissions. */
  permissions?: Record<string, "read" | "write">;
}

const GithubOctokit = Octokit.plugin(throttling, retry);
type RequestInterface = InstanceType<typeof Octokit>["request"];
type EndpointArgs = Parameters<RequestInterface["endpoint"]["merge"]>;
export type GithubClient = InstanceType<typeof GithubOctokit>;

export interface GithubClientOptions {
  /** REST base URL, e.g. https://api.github.com or a stand-in speaking the same wire format. */
  baseUrl: string;
  /** OAuth access token; never logged. */
  token?: string;
  /** Acts as a GitHub App installation instead (installation tokens minted and re-minted in memory). */
  app?: InstallationAuth;
  logger?: Logger;
  /** Longest wait (seconds) we accept for a rate-limit reset before giving up with a clear error. */
  maxRateLimitWaitSeconds?: number;
  /** Retries of a throttled request before giving up. */
  maxRateLimitRetries?: number;
}

/** Content-creating requests a credential may send at once before the 1-per-second pace applies. */
export const GITHUB_WRITE_BURST = 8;

/**
 * One write lane per credential: a burst of GITHUB_WRITE_BURST, refilled at one per second. GitHub
 * asks for about a second between content-creating requests and caps them at 80 a minute; the
 * plugin's default spaces every write of the whole process by a full second, so the five writes
 * of one pull request took four seconds and every user's writes queued behind each other's.
 */
const writeLanes = new Bottleneck.Group({
  maxConcurrent: 1,
  reservoir: GITHUB_WRITE_BURST,
  reservoirIncreaseAmount: 1,
  reservoirIncreaseInterval: 1000,
  reservoirIncreaseMaximum: GITHUB_WRITE_BURST,
  // An idle lane is dropped after two minutes; by then it would have refilled anyway.
  timeout: 120_000,
});

const laneId = (token: string | undefined) =>
  token ? createHash("sha256").update(token).digest("hex").slice(0, 16) : "anonymous";

/**
 * Octokit with GitHub's rate-limit etiquette: primary limits (x-ratelimit-*) and secondary limits
 * (retry-after) are waited out when the wait is short, otherwise the request fails and
 * `toGithubError` turns it into `github.rate_limited`. 5xx answers are retried with backoff.
 */
export function createGithubClient(opts: GithubClientOptions): GithubClient {
  const maxWait = opts.maxRateLimitWaitSeconds ?? 60;
  const maxRetries = opts.maxRateLimitRetries ?? 2;
  const log = opts.logger;
  const shouldWait =
    (kind: string) =>
    (retryAfter: number, options: { method?: string; url?: string }, _o: unknown, retryCount: number) => {
      const wait = retryAfter <= maxWait && retryCount < maxRetries;
      log?.warn(
        { kind, retryAfter, retryCount, method: options.method, route: options.url, wait },
        "github rate limit hit",
      );
      return wait;
    };
  const app = opts.app;
  return new GithubOctokit({
    baseUrl: opts.baseUrl.replace(/\/+$/, ""),
    ...(app ? { authStrategy: installationStrategy(app, opts.baseUrl.replace(/\/+$/, "")) } : { auth: opts.token }),
    userAgent: "fixloop",
    retry: { retries: 2, doNotRetry: [400, 401, 403, 404, 409, 410, 422, 429, 451] },
    throttle: {
      id: app ? `installation-${app.installationId}` : laneId(opts.token),
      write: writeLanes,
      onRateLimit: shouldWait("primary"),
      onSecondaryRateLimit: shouldWait("secondary"),
    },
    log: {
      debug: () => {},
      info: () => {},
      warn: (msg: string) => log?.warn({ source: "octokit" }, msg),
      // Octokit's request log reports every non-2xx answer as an error. A 304 (the ETag matched)
      // and a 404 (an expected "not there") are ordinary replies; the caller decides what they mean.
      // A 422 on creating a ref is the expected race of two writers of one branch, handled by the caller.
      error: (msg: string) => {
        const status = Number(/ - (\d{3}) with id /.exec(msg)?.[1]);
        if (status === 304 || status === 404) log?.debug({ source: "octokit", status }, msg);
        else if (status === 422 && /^POST \S+\/git\/refs - /.test(msg)) log?.info({ source: "octokit", status }, msg);
        else log?.error({ source: "octokit" }, msg);
      },
    },
  });
}

/**
 * Authenticates every request with an installation token narrowed to `app`'s repositories and
 * permissions, minted on first use (kept in this client's memory only, for this job). A token
 * GitHub no longer takes (expired, revoked, its installation changed) answers 401: the token is
 * minted again, once, and the request repeated.
 */
function installationStrategy(app: InstallationAuth, baseUrl: string) {
  const baseUrlPath = new URL(baseUrl).pathname.replace(/\/+$/, "");
  return ({ request }: { request: RequestInterface }) => {
    const appAuth = createAppAuth({
      appId: app.appId,
      privateKey: app.privateKey,
      request: request.defaults({ baseUrl }),
    });
    const mint = (refresh: boolean) =>
      appAuth({
        type: "installation",
        installationId: app.installationId,
        repositoryNames: app.repositoryNames,
        permissions: app.permissions,
        refresh,
      });
    const hook = async (send: RequestInterface, ...args: EndpointArgs) => {
      const endpoint = send.endpoint.merge(...args) as ReturnType<RequestInterface["endpoint"]["merge"]> & {
        url: string;
      };
      // Minting goes through this client's own request (and so this hook) with the App's JWT set.
      if (/^\/app(\/|$)/.test(endpoint.url.replace(/^https?:\/\/[^/]+/, "").replace(baseUrlPath, "")))
        return send(endpoint);
      endpoint.headers.authorization = `token ${(await mint(false)).token}`;
      try {
        return await send(endpoint);
      } catch (error) {
        if ((error as { status?: number }).status !== 401) throw error;
        endpoint.headers.authorization = `token ${(await mint(true)).token}`;
        return send(endpoint);
      }
    };
    return Object.assign(() => mint(false), { hook });
  };
}
