import crypto from "node:crypto";
import path from "node:path";
import { pickPort } from "../services/ports";

export interface Sandboxes {
  /** Names of the stand-ins in use: "github", "models", "payments". */
  names: string[];
  /** Settings pointing the product at the stand-ins (base URLs and sandbox credentials). */
  env: Record<string, string>;
  github?: { url: string; control: unknown };
  models?: { url: string; control: unknown };
  payments?: { url: string; control: unknown };
  stop(): Promise<void>;
}

const has = (env: Record<string, string | undefined>, ...keys: string[]) => keys.some((k) => !!env[k]);

/**
 * Starts a stand-in for each external service that has no credentials configured.
 * Product code only sees other base URLs; it never knows which services are stand-ins.
 */
export async function startSandboxes(opts: {
  dataDir: string;
  given: Record<string, string | undefined>;
  publicUrl: string;
  /**
   * The GitHub stand-in's port, kept across restarts because stored links and avatars name it;
   * when taken, another one is used with a warning. 0 or absent: any free port (tests).
   */
  githubPort?: number;
  log?: (line: string) => void;
}): Promise<Sandboxes> {
  const names: string[] = [];
  const env: Record<string, string> = {};
  const stops: Array<() => Promise<void>> = [];
  const out: Sandboxes = { names, env, stop: async () => void (await Promise.allSettled(stops.map((s) => s()))) };
  try {
    if (!has(opts.given, "GITHUB_CLIENT_ID")) {
      const { startGithubSandbox } = await import("./github/index");
      const wanted = opts.githubPort ?? 0;
      const port = wanted > 0 ? await pickPort(wanted) : 0;
      if (wanted > 0 && port !== wanted)
        opts.log?.(
          `warning: port ${wanted} is taken, so the GitHub stand-in listens on ${port} this time; links and ` +
            `avatars stored under its usual address will not load until it gets ${wanted} back (GITHUB_SANDBOX_PORT)`,
        );
      const webhookSecret = opts.given.GITHUB_WEBHOOK_SECRET || crypto.randomBytes(24).toString("hex");
      const gh = await startGithubSandbox({
        dataDir: path.join(opts.dataDir, "github-sandbox"),
        port,
        log: opts.log,
        selfLinks: true,
        // Reviews, review comments, check runs and merges on the stand-in come back as signed webhooks.
        webhook: { url: `${opts.publicUrl}/api/github/webhook`, secret: webhookSecret },
      });
      stops.push(() => gh.stop());
      // The stand-in's own GitHub App: installing it sends the user back to Fixloop's setup route.
      const app = gh.control.defaultApp();
      gh.control.setDefaultAppSetupUrl(`${opts.publicUrl}/api/github/app/setup`);
      Object.assign(env, {
        GITHUB_APP_ID: String(app.id),
        GITHUB_APP_SLUG: app.slug,
        GITHUB_APP_PRIVATE_KEY: app.pem,
        // The stand-in's App is a default: an App the operator creates from /ops (manifest flow) replaces it.
        GITHUB_APP_PRECEDENCE: "stored",
        GITHUB_CLIENT_ID: gh.clientId,
        GITHUB_CLIENT_SECRET: gh.clientSecret,
        GITHUB_WEB_URL: gh.url,
        GITHUB_API_URL: gh.url,
        SANDBOX_EXAMPLE_ISSUE_URLS: gh.exampleIssueUrls().join(","),
        GITHUB_WEBHOOK_SECRET: webhookSecret,
      });
      out.github = gh;
      names.push("github");
    }
    if (!has(opts.given, "GROQ_API_KEY", "OPENAI_API_KEY", "ANTHROPIC_API_KEY", "OPENAI_COMPATIBLE_BASE_URL")) {
      const { startModelSandbox } = await import("./models/index");
      const models = await startModelSandbox({ log: opts.log });
      stops.push(() => models.stop());
      Object.assign(env, models.env);
      // The stand-in serves embeddings too; the rerank still runs only when EMBEDDINGS_MODEL is set.
      if (!has(opts.given, "EMBEDDINGS_BASE_URL")) {
        const { EMBEDDINGS_MODEL: _model, ...endpoint } = models.embeddingsEnv;
        Object.assign(env, endpoint);
      }
      out.models = models;
      names.push("models");
    }
    if (!has(opts.given, "RAZORPAY_KEY_ID")) {
      const { startRazorpaySandbox } = await import("./razorpay/index");
      const pay = await startRazorpaySandbox({ webhookUrl: `${opts.publicUrl}/api/payments/webhook` });
      stops.push(() => pay.stop());
      Object.assign(env, pay.env);
      out.payments = pay;
      names.push("payments");
    }
  } catch (err) {
    await out.stop();
    throw err;
  }
  return out;
}
