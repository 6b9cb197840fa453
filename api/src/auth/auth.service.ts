import type { AppDeps } from "../deps";
import { cipherFor } from "./auth.cipher";
import { githubAccounts, users } from "@fixloop/db";
import { consumeOauthState, createLoginCode, type StatePurpose } from "./auth.credentials";
import { exchangeCode, fetchProfile } from "./oauth.client";

export type CallbackOutcome =
  | { ok: true; purpose: "signin"; loginCode: string }
  | { ok: true; purpose: "repos" }
  | { ok: false; purpose: StatePurpose; code: string; message: string };

const MESSAGES: Record<string, string> = {
  "oauth.state_missing": "The sign-in request is missing its state; start again",
  "oauth.state_invalid": "The sign-in request is unknown; start again",
  "oauth.state_mismatch": "The sign-in request was started in another browser; start again",
  "oauth.state_reused": "The sign-in request was already used; start again",
  "oauth.state_expired": "The sign-in request expired; start again",
  "oauth.denied": "GitHub authorization was cancelled",
  "oauth.code_missing": "GitHub did not return an authorization code",
  "oauth.exchange_failed": "GitHub did not accept the authorization code",
  "oauth.account_mismatch": "Authorize with the same GitHub account you signed in with",
};

const failure = (purpose: StatePurpose, code: string): CallbackOutcome => ({
  ok: false,
  purpose,
  code,
  message: MESSAGES[code] ?? code,
});

/**
 * The OAuth callback: the state must exist, belong to this browser, be unused and fresh before
 * anything else happens; only then is the code exchanged and the user stored.
 */
export async function completeOauth(
  deps: AppDeps,
  publicUrl: string,
  q: { state?: string; code?: string; error?: string },
  binding: string | undefined,
): Promise<CallbackOutcome> {
  if (!q.state || !binding) return failure("signin", "oauth.state_missing");
  const state = await consumeOauthState(deps.db, q.state, binding);
  if (!state.ok) return failure(state.purpose, state.reason);
  if (q.error) return failure(state.purpose, "oauth.denied");
  if (!q.code) return failure(state.purpose, "oauth.code_missing");
  const token = await exchangeCode(deps.env, publicUrl, q.code);
  if (!token) return failure(state.purpose, "oauth.exchange_failed");
  const profile = await fetchProfile(deps.env, token.accessToken);
  const cipher = cipherFor(deps);
  const identity = {
    ...profile,
    seal: (userId: string) => cipher.encrypt(token.accessToken, userId),
    scopes: token.scopes,
  };
  if (state.purpose === "repos") {
    const user = state.userId ? await users.find(deps.db, state.userId) : undefined;
    if (!user || String(user.github_id) !== String(profile.githubId)) return failure("repos", "oauth.account_mismatch");
    await githubAccounts.save(deps.db, user.id, { ...identity, token: identity.seal(user.id) });
    deps.logger.info({ userId: user.id, scopes: token.scopes }, "repository access authorized");
    return { ok: true, purpose: "repos" };
  }
  const userId = await users.upsertFromGithub(deps.db, identity);
  deps.logger.info({ userId, login: profile.login }, "signed in with GitHub");
  return { ok: true, purpose: "signin", loginCode: await createLoginCode(deps.db, userId, binding) };
}
