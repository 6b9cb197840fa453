import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { createRequire } from "node:module";
import { chromium, type Browser, type BrowserContext, type Page } from "playwright-core";
import pg from "pg";
import { afterEach, beforeEach, inject } from "vitest";
import { startStack, type Stack } from "@fixloop/infra/launcher";
import type { GithubSandboxControl } from "@fixloop/testkit/sandbox";
import type { ModelSandboxControl } from "@fixloop/testkit/sandbox";
import { createTestDatabase, testPrefix, testRedisUrl } from "@fixloop/testkit";
import { ROOT } from "@fixloop/infra/launcher";

const CHROMIUM =
  process.env.CHROMIUM_PATH ?? ["/usr/bin/chromium", "/usr/bin/chromium-browser"].find((p) => fs.existsSync(p));
const FLAGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--no-first-run",
];
const AXE_SOURCE = fs.readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");
export const SCREENSHOTS = path.join(ROOT, "test-output", "screenshots");

/** The stacks this file started: a failed test prints what they logged while it ran. */
const running: E2E[] = [];
const logMarks = new Map<E2E, number>();
/** How many of a failed test's log lines are printed (the last ones). */
const FAILURE_LOG_LINES = 150;

beforeEach(() => {
  for (const e of running) logMarks.set(e, e.logs.length);
});
afterEach(async (ctx) => {
  // A test that set a slow model and failed before setting it back must not slow the next one.
  for (const e of running) e.models?.latency(0);
  if (ctx.task.result?.state !== "fail") return;
  for (const e of running) {
    const lines = e.logs.slice(logMarks.get(e) ?? 0);
    const shown = lines.slice(-FAILURE_LOG_LINES).map((l) => (l.length > 400 ? `${l.slice(0, 400)}…` : l));
    console.error(
      `--- ${ctx.task.name}: the stack's last ${shown.length} of ${lines.length} log lines during the test ---\n${shown.join("\n")}`,
    );
    console.error(`--- what its database was doing ---\n${await databaseActivity(e.stack.env.DATABASE_URL)}`);
  }
});

/** The database's sessions that are not idle and the locks waited for: what a hung request waits on. */
async function databaseActivity(url: string | undefined): Promise<string> {
  if (!url) return "(no database)";
  const client = new pg.Client({ connectionString: url });
  try {
    await client.connect();
    const { rows } = await client.query(
      `select pid, state, wait_event_type, wait_event, round(extract(epoch from now() - xact_start)::numeric, 1) as xact_s,
              left(query, 160) as query
         from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid() and state <> 'idle'`,
    );
    const waits = await client.query(
      `select pid, locktype, mode, relation::regclass::text as rel from pg_locks where not granted`,
    );
    return [...rows, ...waits.rows].map((r) => JSON.stringify(r)).join("\n") || "(all sessions idle)";
  } catch (err) {
    return `(could not read: ${(err as Error).message})`;
  } finally {
    await client.end().catch(() => {});
  }
}

export interface E2E {
  stack: Stack;
  browser: Browser;
  github: GithubSandboxControl;
  models: ModelSandboxControl;
  /** Every line the API, workers, services and stand-ins logged (at debug level) during the run. */
  logs: string[];
  /** Secrets of this run: OAuth tokens the GitHub stand-in issued, session cookies, keys and client secrets. */
  secrets(): Promise<string[]>;
  newPage(opts?: { width?: number }): Promise<{ context: BrowserContext; page: Page }>;
  stop(): Promise<void>;
}

/** The whole product as `npm start` runs it (API, worker, stand-ins) on this run's Postgres/Redis, plus headless Chromium. */
export async function startE2E(name: string, extraEnv: Record<string, string> = {}): Promise<E2E> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `fixloop-e2e-${name}-`));
  const { url } = await createTestDatabase();
  const env = {
    DATABASE_URL: url,
    REDIS_URL: testRedisUrl(),
    QUEUE_PREFIX: testPrefix(),
    RATE_LIMITS_ENABLED: "false",
    LOG_LEVEL: "debug",
    ...extraEnv,
  };
  const logs: string[] = [];
  const start = () =>
    startStack({
      dataDir,
      port: 0,
      buildWeb: "if-missing",
      entries: inject("e2eEntries"),
      env,
      log: (s, l) => {
        logs.push(l);
        if (process.env.E2E_LOG) console.log(`[${s}] ${l}`);
      },
    });
  const stack = await start().catch(async (err: Error) => {
    // The API's port is picked free, then bound a moment later: another file's server can take it
    // in between. That one race is tried again; any other failure to start says what the API said.
    const said = logs.slice(-30).join("\n");
    if (!/EADDRINUSE/.test(said)) throw new Error(`${err.message}; its last lines:\n${said}`);
    console.warn(`${name}: the API's port was taken before it bound it; starting again`);
    return start();
  });
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: FLAGS, headless: true });
  const contexts: BrowserContext[] = [];
  const e2e: E2E = {
    stack,
    browser,
    github: stack.sandboxes.github?.control as GithubSandboxControl,
    models: stack.sandboxes.models?.control as ModelSandboxControl,
    logs,
    async secrets() {
      const state = fs.readFileSync(path.join(dataDir, "github-sandbox", "state.json"), "utf8");
      const oauthTokens = state.match(/gh[opsu]_[A-Za-z0-9]{20,}/g) ?? [];
      const cookies = (await Promise.all(contexts.map((c) => c.cookies())))
        .flat()
        .filter((c) => c.name === "fixloop_session")
        .map((c) => c.value);
      const keys = (stack.env.TOKEN_ENCRYPTION_KEYS ?? "").split(",").map((k) => k.slice(k.indexOf(":") + 1));
      const named = [
        "GITHUB_CLIENT_SECRET",
        "RAZORPAY_KEY_SECRET",
        "RAZORPAY_WEBHOOK_SECRET",
        "GITHUB_WEBHOOK_SECRET",
        "OPENAI_API_KEY",
        "ANTHROPIC_API_KEY",
        "GROQ_API_KEY",
      ].map((k) => stack.env[k] ?? "");
      return [...new Set([...oauthTokens, ...cookies, ...keys, ...named])].filter((s) => s.length >= 12);
    },
    async newPage(opts = {}) {
      const context = await browser.newContext({
        viewport: { width: opts.width ?? 1280, height: 900 },
        baseURL: stack.url,
      });
      contexts.push(context);
      return { context, page: await context.newPage() };
    },
    async stop() {
      running.splice(running.indexOf(e2e), 1);
      await browser.close().catch(() => {});
      await stack.stop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
  running.push(e2e);
  return e2e;
}

/** Signs in through the GitHub stand-in's authorize page as `login`. */
export async function signIn(page: Page, login: string) {
  await page.goto("/auth");
  await page.getByRole("link", { name: "Continue with GitHub" }).click();
  await page.getByRole("button", { name: `Authorize as ${login}` }).click();
  await page.waitForURL(/\/dashboard$/);
}

/** Grants repository access through the stand-in and lands back on /repositories. */
export async function authorizeRepositories(page: Page, login: string) {
  await page.goto("/repositories");
  await page.getByRole("link", { name: "Authorize repository access" }).click();
  await page.getByRole("button", { name: `Authorize as ${login}` }).click();
  await page.waitForURL(/\/repositories/);
}

export async function screenshot(page: Page, name: string) {
  fs.mkdirSync(SCREENSHOTS, { recursive: true });
  await page.screenshot({ path: path.join(SCREENSHOTS, `${name}.png`), fullPage: true });
}

/** axe-core violations of serious or critical impact on the current page. */
export async function seriousA11yViolations(page: Page): Promise<string[]> {
  await page.evaluate(AXE_SOURCE);
  const violations = await page.evaluate(async () => {
    const axe = (
      window as unknown as {
        axe: {
          run: (
            ctx: Document,
          ) => Promise<{ violations: Array<{ id: string; impact: string | null; nodes: Array<{ target: unknown }> }> }>;
        };
      }
    ).axe;
    const r = await axe.run(document);
    return r.violations.map((v) => ({
      id: v.id,
      impact: v.impact,
      targets: v.nodes.slice(0, 3).map((n) => JSON.stringify(n.target)),
    }));
  });
  return violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .map((v) => `${v.id} (${v.impact}): ${v.targets.join(", ")}`);
}

/** Waits for a toast with exactly or partly this text. */
export async function toast(page: Page, text: string | RegExp) {
  await page.locator("[data-sonner-toast]").filter({ hasText: text }).first().waitFor({ timeout: 30_000 });
}

/** Signs in as octocat, grants repository access, syncs octocat/todo-api and fetches its issues. */
export async function signInWithTodoApi(page: Page) {
  await signIn(page, "octocat");
  await authorizeRepositories(page, "octocat");
  await toast(page, "Repository access authorized successfully!");
  await page.getByRole("button", { name: "Sync octocat/todo-api" }).click();
  await toast(page, "Repository synced successfully");
  await page.getByRole("button", { name: "Fetch issues of octocat/todo-api" }).click();
  await toast(page, /^Fetched \d+ issues$/);
}

/** Opens the solve page of an issue from the issues list. */
export async function openSolve(page: Page, title: string) {
  await page.goto("/issues");
  await page.getByRole("link", { name: `Solve with AI: ${title}` }).click();
  // Titles render their inline markdown: `code` shows as code, without the backticks.
  await page.getByRole("heading", { name: title.replace(/`/g, "") }).waitFor();
}

/** Starts a run on the open solve page. */
export async function generate(page: Page) {
  await page.getByRole("button", { name: "Generate Solution" }).click();
  await page.waitForURL(/[?&]run=/);
}

/** Solves an issue and opens its solution's validation page. */
export async function solveAndReview(page: Page, title: string) {
  await openSolve(page, title);
  await generate(page);
  await page.getByTestId("solution-result").waitFor({ timeout: 90_000 });
  await page.getByRole("link", { name: "Review & Validate" }).click();
  await page.waitForURL(/\/validations\/[^/]+$/);
  await page.getByRole("heading", { name: "Validation Decision" }).waitFor();
}
