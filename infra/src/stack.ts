import fs from "node:fs";
import path from "node:path";
import { spawnSync } from "node:child_process";
import { migrateToLatest } from "@fixloop/db";
import { ROOT } from "./paths";
import { loadOrCreateLocalSecrets, startServices, pickPort, type Services } from "@fixloop/testkit/services";
import { spawnTs, superviseTs, waitForHealth, type Child, type SupervisorOptions } from "@fixloop/testkit/processes";
import { startSandboxes, type Sandboxes } from "@fixloop/testkit/sandbox";

export interface StackOptions {
  /** Data for Postgres, Redis, stand-ins and local secrets. */
  dataDir: string;
  /** 0 picks a free port. */
  port: number;
  /** Settings; anything absent falls back to embedded services and stand-ins. */
  env?: Record<string, string | undefined>;
  workers?: number;
  /** Restart backoff of crashed workers (defaults: 1 s doubling to 30 s). */
  restart?: Omit<SupervisorOptions, "onLine">;
  buildWeb?: "if-missing" | "always" | "never";
  log?: (source: string, line: string) => void;
  durable?: boolean;
  /**
   * The API's and workers' entries: their TypeScript sources (the default, run through tsx) or
   * bundles infra/docker/bundle.mjs built, which start on plain node in a fraction of the time.
   */
  entries?: { api: string; worker: string };
}

export interface Stack {
  url: string;
  env: Record<string, string>;
  services: Services;
  sandboxes: Sandboxes;
  api: Child;
  workers: Child[];
  /** Starts one more worker process with the stack's settings. */
  addWorker(): Child;
  stop(): Promise<void>;
}

/** Everything `npm start` runs: services, migrations, stand-ins where no credentials are set, the API and workers. */
export async function startStack(opts: StackOptions): Promise<Stack> {
  const given = opts.env ?? {};
  const log = opts.log ?? (() => {});
  const services = await startServices({
    dataDir: opts.dataDir,
    databaseUrl: given.DATABASE_URL,
    redisUrl: given.REDIS_URL,
    durable: opts.durable,
    log: (l) => log("services", l),
  });
  const started: Child[] = [];
  let sandboxes: Sandboxes | undefined;
  try {
    const secrets: { TOKEN_ENCRYPTION_KEYS?: string } = given.TOKEN_ENCRYPTION_KEYS
      ? {}
      : loadOrCreateLocalSecrets(opts.dataDir);
    // A migration may re-encrypt stored tokens: it gets the keys the app will use.
    await migrateToLatest(services.databaseUrl, {
      tokenEncryptionKeys: given.TOKEN_ENCRYPTION_KEYS ?? secrets.TOKEN_ENCRYPTION_KEYS,
    });
    const port = opts.port === 0 ? await pickPort(0) : opts.port;
    const publicUrl = given.PUBLIC_URL ?? `http://localhost:${port}`;
    // `npm start`'s stand-in GitHub keeps one address (PORT + 1 unless GITHUB_SANDBOX_PORT says otherwise).
    const githubPort = opts.port === 0 ? 0 : Number(given.GITHUB_SANDBOX_PORT || port + 1);
    if (!Number.isInteger(githubPort) || githubPort < 0 || githubPort > 65535)
      throw new Error(`GITHUB_SANDBOX_PORT must be a port number (1-65535), not "${given.GITHUB_SANDBOX_PORT}"`);
    sandboxes = await startSandboxes({
      dataDir: opts.dataDir,
      given,
      publicUrl,
      githubPort,
      log: (l) => log("sandbox", l),
    });
    const env: Record<string, string> = Object.fromEntries(
      Object.entries({
        ...secrets,
        ...sandboxes.env,
        ...given,
        DATABASE_URL: services.databaseUrl,
        REDIS_URL: services.redisUrl,
        PORT: String(port),
        PUBLIC_URL: publicUrl,
        SANDBOX_SERVICES: sandboxes.names.join(","),
      }).filter((e): e is [string, string] => typeof e[1] === "string"),
    );
    buildWebIfNeeded(opts.buildWeb ?? "if-missing", log);
    const entries = opts.entries ?? { api: "api/src/main.ts", worker: "worker/src/main.ts" };
    const api = spawnTs("api", entries.api, env, log);
    started.push(api);
    const workers: Child[] = [];
    const addWorker = () => {
      // A crashed worker is started again (with backoff, logged); a stopped stack stops it for good.
      const w = superviseTs(`worker-${workers.length + 1}`, entries.worker, env, {
        onLine: log,
        ...opts.restart,
      });
      workers.push(w);
      started.push(w);
      return w;
    };
    for (let i = 0; i < (opts.workers ?? 1); i++) addWorker();
    await Promise.race([
      waitForHealth(`http://127.0.0.1:${port}`),
      api.exited.then((code) => {
        throw new Error(`API exited with code ${code} during start`);
      }),
    ]);
    const sb = sandboxes;
    return {
      url: publicUrl,
      env,
      services,
      sandboxes: sb,
      api,
      workers,
      addWorker,
      async stop() {
        await Promise.all(started.map((c) => c.stop()));
        await sb.stop();
        await services.stop();
      },
    };
  } catch (err) {
    await Promise.all(started.map((c) => c.stop(2_000)));
    await sandboxes?.stop();
    await services.stop();
    throw err;
  }
}

function buildWebIfNeeded(mode: "if-missing" | "always" | "never", log: (s: string, l: string) => void) {
  const index = path.join(ROOT, "web", "dist", "index.html");
  if (mode === "never" || (mode === "if-missing" && fs.existsSync(index))) return;
  log("build", "building the web app (npm run build)...");
  const r = spawnSync("npm", ["run", "build", "-w", "@fixloop/web"], { cwd: ROOT, stdio: "inherit" });
  if (r.status !== 0) throw new Error("Building the web app failed");
}
