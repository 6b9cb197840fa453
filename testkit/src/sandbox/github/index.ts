import fs from "node:fs";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { createAdaptorServer } from "@hono/node-server";
import type { SandboxDeps } from "./context";
import { createControl, type GithubSandboxControl } from "./control";
import { GitStore } from "./git-store";
import { FaultQueue, RateLimiter } from "./rate-limit";
import { seedSandbox } from "./seeder";
import { seedFromCache } from "./seed-cache";
import { createGithubApp } from "./server";
import { StateStore } from "./state";
import { WebhookSender } from "./webhooks.sender";
import { appWebhookRouter } from "./apps.hooks";
import { STAND_IN_KEEP_ALIVE_MS } from "../keep-alive";

export type { GithubSandboxControl, NewIssue, SandboxPull } from "./control";
export type { RequestLogEntry } from "./context";
export type { WebhookDelivery } from "./webhooks.sender";
export { WebhookSender } from "./webhooks.sender";
export type { FaultRule } from "./rate-limit";

export const SANDBOX_CLIENT_ID = "sandbox-client-id";
export const SANDBOX_CLIENT_SECRET = "sandbox-client-secret";

/** A running GitHub stand-in: OAuth under /login/oauth/*, REST at the root, like api.github.com. */
export interface GithubSandbox {
  /** Base URL, e.g. http://127.0.0.1:PORT; use it as both the OAuth host and the REST base URL. */
  url: string;
  clientId: string;
  clientSecret: string;
  /** In-process test controls. */
  control: GithubSandboxControl;
  /** Open issues of hubot's public repositories, as the github.com URLs a signed-in octocat can import on /contribute. */
  exampleIssueUrls(): string[];
  stop(): Promise<void>;
}

export interface GithubSandboxOptions {
  /** Holds state.json and the bare repositories under git/; seeded when empty. */
  dataDir: string;
  /** 0 or absent picks a free port. */
  port?: number;
  /** Defaults to 127.0.0.1. */
  host?: string;
  log?: (line: string) => void;
  /** Host used in html_url fields; defaults to https://github.com so issue URLs parse as GitHub URLs. */
  htmlUrl?: string;
  /**
   * html_url and avatar_url point at the stand-in itself, which serves the pages and avatars
   * behind them (what `npm start` uses, so every link works offline). Overrides `htmlUrl`.
   */
  selfLinks?: boolean;
  /** Where signed webhooks go (review comments, reviews, check runs, merge/close, renames); none when absent. */
  webhook?: { url: string; secret: string };
}

async function openState(dataDir: string, log: (line: string) => void): Promise<StateStore> {
  const file = path.join(dataDir, "state.json");
  if (fs.existsSync(file)) return StateStore.load(file);
  if (fs.readdirSync(dataDir).length > 0) {
    throw new Error(`github sandbox: ${dataDir} is not empty but has no state.json; refusing to seed over it`);
  }
  await seedFromCache(dataDir, (dir) =>
    seedSandbox(StateStore.create(path.join(dir, "state.json")), new GitStore(path.join(dir, "git"))),
  );
  const store = StateStore.load(file);
  log(`github sandbox: seeded ${store.data.repos.length} repositories into ${dataDir}`);
  return store;
}

/** What the stand-in's routes and controls share; its API URL is known once it listens. */
export function sandboxDeps(
  store: StateStore,
  git: GitStore,
  opts: Pick<GithubSandboxOptions, "htmlUrl" | "log">,
): SandboxDeps {
  const log = opts.log ?? (() => undefined);
  return {
    store,
    git,
    urls: { api: "", html: (opts.htmlUrl ?? "https://github.com").replace(/\/$/, "") },
    clientId: SANDBOX_CLIENT_ID,
    clientSecret: SANDBOX_CLIENT_SECRET,
    limiter: new RateLimiter(),
    faults: new FaultQueue(),
    requestLog: [],
    refUpdates: [],
    log,
    hooks: new WebhookSender(log),
  };
}

/** Starts the GitHub stand-in over `dataDir` (seeding it on first use). */
export async function startGithubSandbox(opts: GithubSandboxOptions): Promise<GithubSandbox> {
  const dataDir = path.resolve(opts.dataDir);
  fs.mkdirSync(dataDir, { recursive: true });
  const log = opts.log ?? (() => undefined);
  const store = await openState(dataDir, log);
  const git = new GitStore(path.join(dataDir, "git"));
  const deps = sandboxDeps(store, git, { ...opts, log });
  deps.hooks.configure(opts.webhook ?? null);
  deps.hooks.route(appWebhookRouter(store), () =>
    (store.data.apps ?? []).some((a) => a.webhookUrl !== null && a.webhookSecret !== null),
  );
  const app = createGithubApp(deps);
  const server = createAdaptorServer({
    fetch: (req: Request) => {
      // GitHub's Link headers and redirects point at /repositories/{id}/...; serve them as /repos/{owner}/{repo}/...
      const url = new URL(req.url);
      const m = /^\/repositories\/(\d+)(\/.*)?$/.exec(url.pathname);
      const repo = m ? store.repoById(Number(m[1])) : undefined;
      if (!m || !repo) return app.fetch(req);
      url.pathname = `/repos/${repo.owner}/${repo.name}${m[2] ?? ""}`;
      const init: RequestInit & { duplex: "half" } = {
        method: req.method,
        headers: req.headers,
        body: req.body,
        duplex: "half",
      };
      return app.fetch(new Request(url, init));
    },
  });
  (server as import("node:http").Server).keepAliveTimeout = STAND_IN_KEEP_ALIVE_MS;
  const host = opts.host ?? "127.0.0.1";
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(opts.port ?? 0, host, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const publicHost = host === "0.0.0.0" || host === "::" ? "127.0.0.1" : host.includes(":") ? `[${host}]` : host;
  deps.urls.api = `http://${publicHost}:${port}`;
  if (opts.selfLinks) deps.urls.html = deps.urls.api;
  log(`github sandbox: listening on ${deps.urls.api}`);
  return {
    url: deps.urls.api,
    clientId: SANDBOX_CLIENT_ID,
    clientSecret: SANDBOX_CLIENT_SECRET,
    control: createControl(deps),
    exampleIssueUrls: () =>
      store.data.repos
        .filter((r) => r.owner === "hubot" && !r.private)
        .flatMap((r) =>
          store
            .issuesOf(r.id)
            .filter((i) => i.state === "open" && !i.pull)
            .map((i) => `https://github.com/${r.owner}/${r.name}/issues/${i.number}`),
        ),
    stop: () =>
      new Promise<void>((resolve, reject) => {
        server.close((err) => (err ? reject(err) : resolve()));
        if ("closeAllConnections" in server) server.closeAllConnections();
      }),
  };
}
