import crypto from "node:crypto";
import {
  DEFAULT_APP,
  DEFAULT_APP_EVENTS,
  DEFAULT_APP_PERMISSIONS,
  type AppPermissions,
  type AppRecord,
  type InstallationRecord,
} from "./apps.records";
import { githubErrors } from "./errors";
import { isoNow, type StateStore, type TokenRecord } from "./state";

/** GitHub's installation tokens live an hour. */
export const INSTALLATION_TOKEN_TTL_MS = 60 * 60 * 1000;
/** GitHub refuses an App JWT whose lifetime (exp - iat) is over ten minutes. */
const MAX_JWT_SECONDS = 600;
const ACCESS_DOC = "https://docs.github.com/rest/apps/apps#create-an-installation-access-token-for-an-app";

export const botLogin = (app: Pick<AppRecord, "slug">): string => `${app.slug}[bot]`;

/** Registers an App with a fresh key and its bot account (GitHub's `{slug}[bot]` user). */
export function registerApp(
  store: StateStore,
  fields: Partial<AppRecord> & Pick<AppRecord, "slug" | "name" | "owner">,
  id = store.nextId(),
): AppRecord {
  const { privateKey } = crypto.generateKeyPairSync("rsa", { modulusLength: 2048 });
  const app: AppRecord = {
    id,
    clientId: `Iv23${crypto.randomBytes(8).toString("hex")}`,
    clientSecret: crypto.randomBytes(20).toString("hex"),
    webhookSecret: null,
    webhookUrl: null,
    setupUrl: null,
    callbackUrls: [],
    pem: privateKey.export({ type: "pkcs1", format: "pem" }).toString(),
    permissions: { ...DEFAULT_APP_PERMISSIONS },
    events: [...DEFAULT_APP_EVENTS],
    createdAt: isoNow(),
    ...fields,
  };
  store.mutate((s) => {
    s.apps = [...(s.apps ?? []), app];
    s.users.push({
      id: store.nextId(),
      login: botLogin(app),
      name: app.name,
      email: "",
      bio: null,
      company: null,
      location: null,
      createdAt: app.createdAt,
    });
  });
  return app;
}

/** The stand-in's own App (created on first use), as `npm start` and the tests configure Fixloop with. */
export function defaultApp(store: StateStore): AppRecord {
  const found = (store.data.apps ?? []).find((a) => a.id === DEFAULT_APP.id);
  // Owned by the seeded operator account (octocat), as a self-hoster's App is owned by their account.
  const owner = store.user("octocat")?.login ?? store.data.users[0]?.login ?? "";
  return found ?? registerApp(store, { slug: DEFAULT_APP.slug, name: DEFAULT_APP.name, owner }, DEFAULT_APP.id);
}

export const appById = (store: StateStore, id: number) => (store.data.apps ?? []).find((a) => a.id === id);
export const appBySlug = (store: StateStore, slug: string) =>
  (store.data.apps ?? []).find((a) => a.slug.toLowerCase() === slug.toLowerCase());
export const installationById = (store: StateStore, id: number) =>
  (store.data.installations ?? []).find((i) => i.id === id);

const looksLikeJwt = (raw: string) => /^[\w-]+\.[\w-]+\.[\w-]+$/.test(raw) && raw.startsWith("eyJ");

/**
 * An App JWT as GitHub checks it: RS256 signed by the App's key, `iss` the App id or client id,
 * `exp` in the future, and at most ten minutes after `iat` (a minute of clock drift allowed).
 */
export function verifyAppJwt(store: StateStore, raw: string): AppRecord {
  const [head = "", body = "", sig = ""] = raw.split(".");
  let header: { alg?: string };
  let claims: { iss?: unknown; iat?: unknown; exp?: unknown };
  try {
    header = JSON.parse(Buffer.from(head, "base64url").toString("utf8")) as typeof header;
    claims = JSON.parse(Buffer.from(body, "base64url").toString("utf8")) as typeof claims;
  } catch {
    throw githubErrors.badCredentials();
  }
  const app = (store.data.apps ?? []).find((a) => String(a.id) === String(claims.iss) || a.clientId === claims.iss);
  if (header.alg !== "RS256" || !app) throw jwtError("'Issuer' claim ('iss') must be an Integer");
  const ok = crypto.verify(
    "RSA-SHA256",
    Buffer.from(`${head}.${body}`),
    crypto.createPublicKey(app.pem),
    Buffer.from(sig, "base64url"),
  );
  if (!ok) throw jwtError("A JSON web token could not be decoded");
  const now = Math.floor(Date.now() / 1000);
  if (typeof claims.exp !== "number" || typeof claims.iat !== "number" || claims.exp <= now - 60)
    throw jwtError(
      "'Expiration time' claim ('exp') must be a numeric value representing the future time at which the assertion expires",
    );
  if (claims.exp - claims.iat > MAX_JWT_SECONDS + 60 || claims.iat > now + 60)
    throw jwtError("'Expiration time' claim ('exp') is too far in the future");
  return app;
}

const jwtError = (message: string) => {
  const e = githubErrors.badCredentials();
  e.message = message;
  return e;
};

/** The repositories an installation reaches now: the account's own for `all`, the chosen ones that still exist otherwise. */
export function installationRepoIds(store: StateStore, inst: InstallationRecord): number[] {
  const owned = store.data.repos.filter((r) => r.owner.toLowerCase() === inst.account.toLowerCase());
  if (inst.repositorySelection === "all") return owned.map((r) => r.id);
  return owned.filter((r) => inst.repoIds.includes(r.id)).map((r) => r.id);
}

/**
 * Resolves a bearer value: an OAuth token, an installation token (expired, revoked or of a
 * suspended installation: unknown), or an App JWT (null auth, the App set).
 */
export function authenticate(
  store: StateStore,
  raw: string,
): { auth: TokenRecord | null; app: AppRecord | null } | null {
  if (looksLikeJwt(raw)) return { auth: null, app: verifyAppJwt(store, raw) };
  const user = store.token(raw);
  if (user) return { auth: user, app: null };
  const t = (store.data.installationTokens ?? []).find((x) => x.token === raw);
  const inst = t ? installationById(store, t.installationId) : undefined;
  const app = inst ? appById(store, inst.appId) : undefined;
  if (!t || !inst || !app || inst.suspendedAt || t.expiresAt <= Date.now()) return null;
  const reach = installationRepoIds(store, inst);
  return {
    app: null,
    auth: {
      token: raw,
      login: botLogin(app),
      scopes: [],
      createdAt: isoNow(),
      installation: {
        id: inst.id,
        repoIds: t.repoIds ? reach.filter((id) => t.repoIds?.includes(id)) : reach,
        permissions: t.permissions,
      },
    },
  };
}

const LEVEL = { read: 1, write: 2 } as const;

/**
 * Mints an installation token, narrowed to `repoIds` (every one must be in the installation) and
 * `permissions` (none above what the installation has); GitHub's 422 otherwise.
 */
export function mintInstallationToken(
  store: StateStore,
  inst: InstallationRecord,
  repoIds: number[] | null,
  permissions: AppPermissions | null,
): { token: string; expiresAt: number; permissions: AppPermissions; repoIds: number[] | null } {
  if (inst.suspendedAt) throw githubErrors.forbidden("This installation has been suspended", ACCESS_DOC);
  const reach = installationRepoIds(store, inst);
  if (repoIds && repoIds.some((id) => !reach.includes(id)))
    throw githubErrors.unprocessable(
      "There is at least one repository that does not exist or is not accessible to the parent installation.",
      ACCESS_DOC,
    );
  const granted = permissions ?? inst.permissions;
  for (const [name, level] of Object.entries(granted)) {
    const has = inst.permissions[name];
    if (!has || LEVEL[level] === undefined || LEVEL[level] > LEVEL[has])
      throw githubErrors.unprocessable(`The permissions requested are not granted to this installation.`, ACCESS_DOC);
  }
  const token = `ghs_${crypto.randomBytes(18).toString("base64url")}`;
  const expiresAt = Date.now() + INSTALLATION_TOKEN_TTL_MS;
  const record = { token, installationId: inst.id, repoIds, permissions: { ...granted }, expiresAt };
  store.mutate((s) => {
    const now = Date.now();
    s.installationTokens = [...(s.installationTokens ?? []).filter((x) => x.expiresAt > now), record];
  });
  return record;
}

/** Installations of `app` that `login` can see: on their own account, or an organisation they belong to. */
export function installationsOf(store: StateStore, login: string, appId?: number): InstallationRecord[] {
  const lower = login.toLowerCase();
  return (store.data.installations ?? []).filter((i) => {
    if (appId !== undefined && i.appId !== appId) return false;
    if (i.account.toLowerCase() === lower) return true;
    const org = store.org(i.account);
    return org?.members.some((m) => m.login.toLowerCase() === lower) ?? false;
  });
}
