import crypto from "node:crypto";
import { Hono } from "hono";
import type { Context } from "hono";
import type { SandboxDeps, SandboxEnv } from "./context";
import { isoNow, type StateStore } from "./state";

const CODE_TTL_MS = 10 * 60 * 1000;
const ERROR_DOCS =
  "https://docs.github.com/apps/managing-oauth-apps/troubleshooting-oauth-app-access-token-request-errors";
const BASE62 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";

const randomBase62 = (n: number): string => Array.from(crypto.randomBytes(n), (b) => BASE62[b % 62]).join("");

export const parseScopes = (raw: string | undefined): string[] => [
  ...new Set((raw ?? "").split(/[\s,]+/).filter(Boolean)),
];

/** Creates a `gho_` token for `login` with exactly `scopes`, as the OAuth exchange does. */
export function issueToken(store: StateStore, login: string, scopes: string[]): string {
  const user = store.user(login);
  if (!user) throw new Error(`github sandbox: unknown user ${login}`);
  const token = `gho_${randomBase62(36)}`;
  store.mutate((s) => s.tokens.push({ token, login: user.login, scopes: [...scopes], createdAt: isoNow() }));
  return token;
}

/**
 * Records the scopes a user authorizes and returns everything granted so far: GitHub adds newly
 * requested scopes to the app's grant and never drops earlier ones on a later authorization.
 */
export function grantScopes(store: StateStore, login: string, requested: string[]): string[] {
  let granted: string[] = [];
  store.mutate((s) => {
    s.grants ??= [];
    const grant = s.grants.find((g) => g.login === login);
    granted = [...new Set([...(grant?.scopes ?? []), ...requested])];
    if (grant) grant.scopes = granted;
    else s.grants.push({ login, scopes: granted });
  });
  return granted;
}

/** The user revokes the app on GitHub: its grant and every token it issued stop working. */
export function revokeGrant(store: StateStore, login: string): void {
  store.mutate((s) => {
    s.grants = (s.grants ?? []).filter((g) => g.login !== login);
    s.tokens = s.tokens.filter((t) => t.login !== login);
  });
}

export const escapeHtml = (s: string): string =>
  s.replace(/[&<>"']/g, (ch) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[ch] ?? ch);

export function page(title: string, body: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title>
<style>body{font-family:system-ui,sans-serif;max-width:34rem;margin:3rem auto;color:#1f2328}
.card{border:1px solid #d0d7de;border-radius:6px;padding:1rem;margin:.75rem 0;display:flex;justify-content:space-between;align-items:center}
button{background:#1f883d;color:#fff;border:0;border-radius:6px;padding:.45rem .9rem;cursor:pointer}
button.secondary{background:#f6f8fa;color:#1f2328;border:1px solid #d0d7de}code{background:#f6f8fa;padding:0 .25rem}</style>
</head><body>${body}</body></html>`;
}

export type Fields = Record<string, string>;

export async function formFields(c: Context<SandboxEnv>): Promise<Fields> {
  const fields: Fields = { ...c.req.query() };
  const type = c.req.header("content-type") ?? "";
  if (type.includes("application/json")) {
    const json: unknown = await c.req.json().catch(() => ({}));
    if (json && typeof json === "object")
      for (const [k, v] of Object.entries(json)) if (typeof v === "string") fields[k] = v;
  } else {
    const text = await c.req.text();
    for (const [k, v] of new URLSearchParams(text)) fields[k] = v;
  }
  return fields;
}

export function oauthRoutes(deps: SandboxDeps) {
  const { store } = deps;
  const hidden = (f: Fields) =>
    ["client_id", "redirect_uri", "scope", "state"]
      .map((k) => `<input type="hidden" name="${k}" value="${escapeHtml(f[k] ?? "")}">`)
      .join("");

  return new Hono<SandboxEnv>()
    .get("/authorize", (c) => {
      const q = c.req.query();
      if (q.client_id !== deps.clientId) {
        return c.html(page("Not Found", "<h1>404</h1><p>Unknown OAuth application (client_id).</p>"), 404);
      }
      if (!q.redirect_uri || !/^https?:\/\//.test(q.redirect_uri)) {
        return c.html(
          page("Redirect URI mismatch", "<h1>Redirect URI mismatch</h1><p>The redirect_uri is missing or invalid.</p>"),
          400,
        );
      }
      const scopes = parseScopes(q.scope);
      const users = store.data.users
        .map(
          (
            u,
          ) => `<form class="card" method="post" action="/login/oauth/authorize"><span><strong>${escapeHtml(u.login)}</strong> ${escapeHtml(u.name)}</span>
${hidden(q)}<input type="hidden" name="login" value="${escapeHtml(u.login)}"><button type="submit">Authorize as ${escapeHtml(u.login)}</button></form>`,
        )
        .join("\n");
      const scopeText = scopes.length
        ? scopes.map((s) => `<code>${escapeHtml(s)}</code>`).join(" ")
        : "public data only";
      const cancel = `<form method="post" action="/login/oauth/authorize">${hidden(q)}<input type="hidden" name="deny" value="1"><button class="secondary" type="submit">Cancel</button></form>`;
      return c.html(
        page(
          "Authorize application",
          `<h1>Authorize Fixloop (sandbox)</h1><p>Requested scopes: ${scopeText}</p>${users}${cancel}`,
        ),
      );
    })
    .post("/authorize", async (c) => {
      const f = await formFields(c);
      if (f.client_id !== deps.clientId || !f.redirect_uri) return c.html(page("Not Found", "<h1>404</h1>"), 404);
      const target = new URL(f.redirect_uri);
      if (f.deny) {
        target.searchParams.set("error", "access_denied");
        target.searchParams.set("error_description", "The user has denied your application access.");
        target.searchParams.set("error_uri", `${ERROR_DOCS}/#access-denied`);
      } else {
        const user = store.user(f.login ?? "");
        if (!user) return c.html(page("Unknown user", "<h1>Unknown sandbox user</h1>"), 422);
        const code = randomBase62(20);
        store.mutate((s) => {
          s.codes = s.codes.filter((x) => !x.used && x.expiresAt > Date.now());
          s.codes.push({
            code,
            login: user.login,
            scopes: parseScopes(f.scope),
            clientId: deps.clientId,
            redirectUri: f.redirect_uri ?? "",
            expiresAt: Date.now() + CODE_TTL_MS,
            used: false,
          });
        });
        target.searchParams.set("code", code);
      }
      if (f.state) target.searchParams.set("state", f.state);
      return c.redirect(target.toString(), 302);
    })
    .post("/access_token", async (c) => {
      const f = await formFields(c);
      const wantsJson = (c.req.header("accept") ?? "").includes("json");
      const reply = (body: Record<string, string>) =>
        wantsJson
          ? c.json(body, 200)
          : c.body(new URLSearchParams(body).toString(), 200, {
              "content-type": "application/x-www-form-urlencoded; charset=utf-8",
            });
      if (f.client_id !== deps.clientId || f.client_secret !== deps.clientSecret) {
        return reply({
          error: "incorrect_client_credentials",
          error_description: "The client_id and/or client_secret passed are incorrect.",
          error_uri: `${ERROR_DOCS}/#incorrect-client-credentials`,
        });
      }
      const record = store.data.codes.find((x) => x.code === f.code);
      if (!record || record.used || record.expiresAt < Date.now() || record.clientId !== f.client_id) {
        return reply({
          error: "bad_verification_code",
          error_description: "The code passed is incorrect or expired.",
          error_uri: `${ERROR_DOCS}/#bad-verification-code`,
        });
      }
      if (f.redirect_uri && f.redirect_uri !== record.redirectUri) {
        return reply({
          error: "redirect_uri_mismatch",
          error_description: "The redirect_uri MUST match the registered callback URL for this application.",
          error_uri: `${ERROR_DOCS}/#redirect-uri-mismatch2`,
        });
      }
      store.mutate(() => {
        record.used = true;
      });
      const scopes = grantScopes(store, record.login, record.scopes);
      const token = issueToken(store, record.login, scopes);
      return reply({ access_token: token, token_type: "bearer", scope: scopes.join(",") });
    });
}
