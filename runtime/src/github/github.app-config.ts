import { githubAppConfigs, type Db, type TokenCipher } from "@fixloop/db";
import { Octokit } from "@octokit/rest";
import { z } from "zod";

/** The GitHub App settings api and worker share (each reads them in its env.ts). */
export const GithubAppEnv = z.object({
  /** The App's id; empty: no App (repository access is the OAuth grant, as before). */
  GITHUB_APP_ID: z.string().regex(/^\d*$/, "a number").default(""),
  /** The App's slug, for its installation page github.com/apps/{slug}/installations/new. */
  GITHUB_APP_SLUG: z.string().default(""),
  /** The App's private key (PEM; `\n` escapes are read as new lines). */
  GITHUB_APP_PRIVATE_KEY: z
    .string()
    .default("")
    .transform((v) => v.replace(/\\n/g, "\n")),
  /**
   * Which App wins when both the environment and the manifest flow (/ops) give one: `env` (the
   * environment's, for infrastructure-as-code) or `stored` (the one created from /ops).
   */
  GITHUB_APP_PRECEDENCE: z.enum(["env", "stored"]).default("env"),
});
export type GithubAppEnv = z.infer<typeof GithubAppEnv>;

/** The App credentials in use: the environment's, or those the manifest flow stored (decrypted). */
export interface GithubAppCredentials {
  appId: string;
  slug: string;
  privateKey: string;
}

export const appFromEnv = (env: GithubAppEnv): GithubAppCredentials | null =>
  env.GITHUB_APP_ID && env.GITHUB_APP_PRIVATE_KEY
    ? { appId: env.GITHUB_APP_ID, slug: env.GITHUB_APP_SLUG, privateKey: env.GITHUB_APP_PRIVATE_KEY }
    : null;

export interface GithubAppSource {
  db: Db;
  cipher: TokenCipher;
  env: GithubAppEnv;
}

/** The App the manifest flow stored, decrypted, with its webhook secret; null when none was made. */
export async function storedGithubApp(
  ctx: Pick<GithubAppSource, "db" | "cipher">,
): Promise<(GithubAppCredentials & { webhookSecret: string }) | null> {
  const row = await githubAppConfigs.newestSecret(ctx.db);
  if (!row) return null;
  const owner = githubAppConfigs.configCipherOwner(row.id);
  return {
    appId: String(row.app_id),
    slug: row.slug,
    privateKey: ctx.cipher.decrypt(row.key_id, row.private_key_enc, owner),
    webhookSecret: ctx.cipher.decrypt(row.key_id, row.webhook_secret_enc, owner),
  };
}

/**
 * The App Fixloop uses now. With GITHUB_APP_PRECEDENCE `env` (the default), the environment's App
 * (GITHUB_APP_ID and GITHUB_APP_PRIVATE_KEY set) wins and a stored one is the fallback; with
 * `stored`, an App created from /ops wins and the environment's is the fallback. Read on every
 * call (one indexed row), so an App created from /ops serves the next job without a restart.
 */
export async function githubApp(ctx: GithubAppSource): Promise<GithubAppCredentials | null> {
  const fromEnv = appFromEnv(ctx.env);
  if (fromEnv && ctx.env.GITHUB_APP_PRECEDENCE === "env") return fromEnv;
  const stored = await storedGithubApp(ctx);
  if (!stored) return fromEnv;
  return { appId: stored.appId, slug: stored.slug, privateKey: stored.privateKey };
}

/** Every secret a GitHub delivery may be signed with: GITHUB_WEBHOOK_SECRET and the stored App's. */
export async function githubWebhookSecrets(
  ctx: Pick<GithubAppSource, "db" | "cipher"> & { env: { GITHUB_WEBHOOK_SECRET: string } },
): Promise<string[]> {
  const row = await githubAppConfigs.newestSecret(ctx.db);
  const stored = row
    ? ctx.cipher.decrypt(row.key_id, row.webhook_secret_enc, githubAppConfigs.configCipherOwner(row.id))
    : "";
  return [ctx.env.GITHUB_WEBHOOK_SECRET, stored].filter((s) => s.length > 0);
}

/**
 * Trades the manifest flow's one-time `code` for the new App (POST /app-manifests/{code}/conversions,
 * no authentication): its id, slug, client id and secret, webhook secret and private key. The
 * answer carries secrets: the caller keeps it out of logs.
 */
export async function convertAppManifest(baseUrl: string, code: string): Promise<unknown> {
  const octokit = new Octokit({
    baseUrl: baseUrl.replace(/\/+$/, ""),
    userAgent: "fixloop",
    log: { debug: () => {}, info: () => {}, warn: () => {}, error: () => {} },
  });
  const { data } = await octokit.rest.apps.createFromManifest({ code });
  return data;
}
