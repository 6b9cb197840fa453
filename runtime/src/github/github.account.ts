import { githubAccounts, type Db, type TokenCipher } from "@fixloop/db";
import type { Logger } from "pino";
import { createGithubClient, type GithubClient } from "./github.client";
import { GithubError } from "./github.errors";

/** The narrow slice of a WorkerContext (or the API's deps) needed to act as a user on GitHub. */
export interface GithubUserContext {
  db: Db;
  cipher: TokenCipher;
  env: { GITHUB_API_URL: string };
  logger?: Logger;
}

export interface GithubForUser {
  client: GithubClient;
  login: string;
  scopes: string[];
}

/** A client acting as `userId`, with the token decrypted only in memory; it never enters payloads or logs. */
export async function githubForUser(ctx: GithubUserContext, userId: string): Promise<GithubForUser> {
  const account = await githubAccounts.credentials(ctx.db, userId);
  if (!account)
    throw new GithubError("github.not_connected", "No GitHub account is connected; sign in with GitHub", 401);
  const token = ctx.cipher.decrypt(account.key_id, account.access_token_enc, userId);
  return {
    client: createGithubClient({ baseUrl: ctx.env.GITHUB_API_URL, token, logger: ctx.logger }),
    login: account.login,
    scopes: account.scopes,
  };
}

export const WRITE_SCOPES = ["public_repo", "repo"];
export const canWrite = (scopes: string[]) => scopes.some((s) => WRITE_SCOPES.includes(s));
