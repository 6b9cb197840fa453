import { createGithubClient } from "@fixloop/runtime";
import type { ApiEnv } from "../env";

export const SIGNIN_SCOPES = ["read:user", "user:email"];

export function callbackUrl(publicUrl: string): string {
  return `${publicUrl}/api/auth/github/callback`;
}

/** GitHub's authorize URL for the web flow. Never asks for `workflow`. */
export function authorizeUrl(env: ApiEnv, publicUrl: string, state: string, scopes: string[]): string {
  const u = new URL("/login/oauth/authorize", env.GITHUB_WEB_URL);
  u.searchParams.set("client_id", env.GITHUB_CLIENT_ID);
  u.searchParams.set("redirect_uri", callbackUrl(publicUrl));
  u.searchParams.set("scope", scopes.filter((s) => s !== "workflow").join(" "));
  u.searchParams.set("state", state);
  u.searchParams.set("allow_signup", "true");
  return u.toString();
}

export interface ExchangedToken {
  accessToken: string;
  scopes: string[];
}

/** Exchanges the callback code for an access token; null when GitHub refuses it. */
export async function exchangeCode(env: ApiEnv, publicUrl: string, code: string): Promise<ExchangedToken | null> {
  const res = await fetch(new URL("/login/oauth/access_token", env.GITHUB_WEB_URL), {
    method: "POST",
    headers: { accept: "application/json", "content-type": "application/json" },
    body: JSON.stringify({
      client_id: env.GITHUB_CLIENT_ID,
      client_secret: env.GITHUB_CLIENT_SECRET,
      code,
      redirect_uri: callbackUrl(publicUrl),
    }),
    signal: AbortSignal.timeout(15_000),
  });
  if (!res.ok) return null;
  const body = (await res.json().catch(() => null)) as { access_token?: unknown; scope?: unknown } | null;
  if (!body || typeof body.access_token !== "string" || !body.access_token) return null;
  const scope = typeof body.scope === "string" ? body.scope : "";
  return { accessToken: body.access_token, scopes: scope.split(/[,\s]+/).filter(Boolean) };
}

export interface GithubProfile {
  githubId: number;
  login: string;
  email: string | null;
  avatarUrl: string | null;
}

/** The signed-in GitHub user, with the primary verified email when `user:email` was granted. */
export async function fetchProfile(env: ApiEnv, token: string): Promise<GithubProfile> {
  const gh = createGithubClient({ baseUrl: env.GITHUB_API_URL, token });
  const { data: user } = await gh.rest.users.getAuthenticated();
  let email = user.email ?? null;
  try {
    const { data: emails } = await gh.rest.users.listEmailsForAuthenticatedUser({ per_page: 100 });
    email = emails.find((e) => e.primary && e.verified)?.email ?? email;
  } catch {
    // Without user:email the public profile email is the best we have.
  }
  return { githubId: user.id, login: user.login, email, avatarUrl: user.avatar_url || null };
}
