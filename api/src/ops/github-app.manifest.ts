import crypto from "node:crypto";
import { z } from "zod";
import { githubAppConfigs } from "@fixloop/db";
import { GITHUB_APP_EVENTS, GITHUB_APP_PERMISSIONS, permissionsBeyondFixloop } from "@fixloop/contract";
import { convertAppManifest } from "@fixloop/runtime";
import type { AppDeps } from "../deps";
import { cipherFor } from "../auth/auth.cipher";
import { hashSecret, randomSecret } from "../auth/secrets";
import type { ManifestFailure } from "./github-app.errors";

/** GitHub's manifest codes live an hour; the operator's round trip to GitHub should take minutes. */
const STATE_TTL_MS = 30 * 60 * 1000;

/** GitHub App names: at most 34 characters. */
export const AppName = z.string().trim().min(1).max(34);
/** A GitHub organisation login (the org variant of the flow). */
export const OrgLogin = z
  .string()
  .trim()
  .regex(/^[A-Za-z0-9](?:[A-Za-z0-9]|-(?=[A-Za-z0-9])){0,38}$/, "must be a GitHub organisation login");

/** The App manifest Fixloop sends GitHub: its URLs, exactly its permissions, its events; private. */
export function appManifest(publicUrl: string, name: string) {
  return {
    name,
    url: publicUrl,
    description: "Fixloop resolves issues with AI: it opens pull requests you approved, as this App's bot.",
    hook_attributes: { url: `${publicUrl}/api/github/webhook`, active: true },
    redirect_url: `${publicUrl}/api/ops/github-app/manifest/callback`,
    callback_urls: [`${publicUrl}/api/auth/github/callback`],
    setup_url: `${publicUrl}/api/github/app/setup`,
    setup_on_update: true,
    public: false,
    default_permissions: GITHUB_APP_PERMISSIONS,
    default_events: [...GITHUB_APP_EVENTS],
  };
}

/**
 * Starts the flow: a fresh `state` (stored hashed, bound to this operator and this session, single
 * use, 30 minutes) and where the browser posts the manifest: the operator's account, or an
 * organisation's settings.
 */
export async function startManifestFlow(
  deps: AppDeps,
  op: { userId: string; sessionToken: string; publicUrl: string; name: string; organization?: string },
) {
  const state = randomSecret("", 24);
  await githubAppConfigs.createState(deps.db, {
    stateHash: hashSecret(state),
    userId: op.userId,
    sessionHash: hashSecret(op.sessionToken),
    expiresAt: new Date(Date.now() + STATE_TTL_MS),
  });
  const web = deps.env.GITHUB_WEB_URL.replace(/\/+$/, "");
  const path = op.organization
    ? `/organizations/${encodeURIComponent(op.organization)}/settings/apps/new`
    : "/settings/apps/new";
  return {
    action: `${web}${path}?state=${encodeURIComponent(state)}`,
    manifest: JSON.stringify(appManifest(op.publicUrl, op.name)),
  };
}

/** GitHub's answer to the conversion, as far as Fixloop keeps it. */
const Conversion = z.object({
  id: z.number().int().positive(),
  slug: z.string().min(1).max(200),
  name: z.string().min(1).max(200),
  owner: z
    .object({ login: z.string().min(1).max(100), type: z.string().max(40).optional() })
    .nullable()
    .optional(),
  html_url: z.string().url(),
  client_id: z.string().min(1).max(200),
  client_secret: z.string().min(1).max(500),
  webhook_secret: z.string().min(1).max(500),
  pem: z.string().includes("PRIVATE KEY").max(20_000),
  permissions: z.record(z.string(), z.string()),
  events: z.array(z.string()).default([]),
});

export type ManifestOutcome =
  { ok: true; slug: string } | { ok: false; reason: ManifestFailure; slug?: string; org?: string };

/**
 * GitHub's redirect back: the state must be this operator's and this session's, unused and fresh;
 * then the code is traded for the App, which is refused (not stored) when it asks for more than
 * Fixloop's permissions, and otherwise stored with its secrets encrypted. Nothing secret is logged.
 */
export async function completeManifestFlow(
  deps: AppDeps,
  op: { userId: string; username: string; sessionToken: string; requestId: string },
  q: { code: string; state: string },
): Promise<ManifestOutcome> {
  const state = await githubAppConfigs.consumeState(deps.db, {
    stateHash: hashSecret(q.state),
    userId: op.userId,
    sessionHash: hashSecret(op.sessionToken),
  });
  const where = { audit: "ops", by: op.username, userId: op.userId, requestId: op.requestId };
  if (!state.ok) {
    deps.logger.warn({ ...where, code: state.reason }, "github app manifest callback refused");
    return state;
  }
  let raw: unknown;
  try {
    raw = await convertAppManifest(deps.env.GITHUB_API_URL, q.code);
  } catch (err) {
    const status = (err as { status?: number }).status;
    deps.logger.warn({ ...where, status }, "github app manifest code refused by GitHub");
    return { ok: false, reason: "github_app.code_invalid" };
  }
  const app = Conversion.safeParse(raw);
  if (!app.success) {
    deps.logger.warn({ ...where, field: app.error.issues[0]?.path.join(".") }, "github app conversion malformed");
    return { ok: false, reason: "github_app.conversion_invalid" };
  }
  const a = app.data;
  const beyond = permissionsBeyondFixloop(a.permissions);
  if (beyond.length > 0) {
    deps.logger.warn(
      { ...where, appId: a.id, slug: a.slug, beyond },
      "github app refused: it asks for more than Fixloop's permissions",
    );
    const org = a.owner?.type === "Organization" ? { org: a.owner.login } : {};
    return { ok: false, reason: "github_app.permissions_exceeded", slug: a.slug, ...org };
  }
  const id = crypto.randomUUID();
  const cipher = cipherFor(deps);
  const owner = githubAppConfigs.configCipherOwner(id);
  const seal = (v: string) => cipher.encrypt(v, owner).value;
  await githubAppConfigs.insert(deps.db, id, {
    appId: a.id,
    slug: a.slug,
    name: a.name,
    ownerLogin: a.owner?.login ?? "",
    htmlUrl: a.html_url,
    clientId: a.client_id,
    keyId: cipher.currentKeyId,
    clientSecretEnc: seal(a.client_secret),
    webhookSecretEnc: seal(a.webhook_secret),
    privateKeyEnc: seal(a.pem),
    permissions: a.permissions,
    events: a.events,
    createdBy: op.userId,
  });
  deps.logger.info({ ...where, action: "github_app.create", appId: a.id, slug: a.slug }, "ops action");
  return { ok: true, slug: a.slug };
}
