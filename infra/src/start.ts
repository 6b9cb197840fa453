import { DATA_DIR } from "./paths";
import { REDIS_MISSING_MESSAGE } from "@fixloop/testkit/services";
import { startStack, type Stack } from "./stack";
import { bwrapAvailable } from "@fixloop/worker/tests-run";

// `npm start`: the whole product on one port, offline, on embedded defaults.
const t0 = performance.now();
const verbose = process.argv.includes("--verbose") || process.env.LOG_LEVEL === "debug";
const port = Number(process.env.PORT ?? 3000);
const workers = Number(process.env.WORKERS ?? 1);

let stack: Stack | undefined;
let stopping = false;
async function stop(signal: string) {
  if (stopping) return;
  stopping = true;
  console.log(`\n${signal}: stopping Fixloop...`);
  await stack?.stop();
  console.log("Stopped.");
  process.exit(0);
}
process.on("SIGINT", () => void stop("SIGINT"));
process.on("SIGTERM", () => void stop("SIGTERM"));

try {
  stack = await startStack({
    dataDir: process.env.FIXLOOP_DATA_DIR ?? DATA_DIR,
    port,
    env: process.env,
    workers,
    buildWeb: process.argv.includes("--build") ? "always" : "if-missing",
    log: (source, line) => {
      const important =
        source === "services" ? /FATAL|PANIC|ERROR:/.test(line) : /"level":(40|50|60)|error|warn|restart/i.test(line);
      if (verbose || important) console.log(`[${source}] ${line}`);
    },
  });
} catch (err) {
  const msg = (err as Error).message;
  console.error(msg.includes("redis-server was not found") ? REDIS_MISSING_MESSAGE : `Fixloop failed to start: ${msg}`);
  process.exit(1);
}

const s = stack;
const secs = ((performance.now() - t0) / 1000).toFixed(1);
console.log(`\nFixloop is running at ${s.url}  (started in ${secs} s)`);
console.log(
  `  database: ${process.env.DATABASE_URL ? "DATABASE_URL" : "embedded Postgres (.data/postgres), as the non-superuser fixloop_app"}`,
);
console.log(
  `  redis:    ${process.env.REDIS_URL ? "REDIS_URL" : "local redis-server (.data/redis), password in .data/secrets.json"}`,
);
console.log(`  workers:  ${s.workers.length}`);
const testsBackend = process.env.SANDBOX_BACKEND || (bwrapAvailable() ? "bwrap" : "off");
if (testsBackend === "off") {
  console.log(
    `  tests:    OFF: ${process.env.SANDBOX_BACKEND ? "SANDBOX_BACKEND=off" : "bwrap (bubblewrap) was not found"}; solutions will not be tested (install it: apt-get install bubblewrap)`,
  );
} else console.log(`  tests:    repository tests run in a ${testsBackend} sandbox`);
if (s.sandboxes.names.length) {
  console.log(`  sandbox stand-ins in use (no credentials configured): ${s.sandboxes.names.join(", ")}`);
  if (s.sandboxes.github)
    console.log(`    GitHub stand-in at ${s.sandboxes.github.url}: sign in as "octocat" or "hubot"`);
  if (s.sandboxes.models) console.log(`    model stand-in at ${s.sandboxes.models.url}: scripted answers`);
  if (s.sandboxes.payments) console.log(`    payment stand-in at ${s.sandboxes.payments.url}: test checkout`);
}
console.log("Press Ctrl-C to stop.");
