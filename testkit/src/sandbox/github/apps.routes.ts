import crypto from "node:crypto";
import { Hono, type Context } from "hono";
import { installationPayload, appPayload, installationRepositories } from "./apps.payloads";
import type { AppPermissions } from "./apps.records";
import {
  installationById,
  installationRepoIds,
  installationsOf,
  mintInstallationToken,
  registerApp,
} from "./apps.service";
import { requireUser } from "./access";
import type { SandboxDeps, SandboxEnv } from "./context";
import { GithubError, githubErrors } from "./errors";
import { paginate, readJson } from "./http";

const DOC = "https://docs.github.com/rest/apps/apps";
const INSTALL_DOC = "https://docs.github.com/rest/apps/installations";

type Ctx = Context<SandboxEnv>;

/**
 * GitHub's description of GET /app/installations gives each item's account as simple-user AND
 * enterprise (allOf, where the single installation has anyOf): the account carries the enterprise
 * fields too (its name, a slug, dates), which clients reading it as a user ignore.
 */
function listedInstallation(p: ReturnType<typeof installationPayload>) {
  const a = p.account as { login: string; name?: string | null };
  return {
    ...p,
    account: {
      ...p.account,
      name: a.name ?? a.login,
      slug: a.login,
      created_at: p.created_at,
      updated_at: p.updated_at,
    },
  };
}

/** The App behind the request's JWT; an installation or user token is not one (GitHub's 401). */
function requireApp(c: Ctx) {
  const app = c.get("app");
  if (!app) throw new GithubError(401, "A JSON web token could not be decoded", `${DOC}#get-the-authenticated-app`);
  return app;
}

function permissionsOf(v: unknown): AppPermissions | null {
  if (v === undefined) return null;
  if (!v || typeof v !== "object" || Array.isArray(v))
    throw githubErrors.unprocessable("permissions must be an object");
  const out: AppPermissions = {};
  for (const [k, level] of Object.entries(v)) {
    if (level !== "read" && level !== "write") throw githubErrors.unprocessable(`Invalid permission level for ${k}`);
    out[k] = level;
  }
  return out;
}

/** The GitHub App endpoints Fixloop uses: App JWT, installation tokens, installation listings, manifest conversion. */
export function appsRoutes(deps: SandboxDeps) {
  const { store, urls } = deps;
  const installationFor = (c: Ctx, appId: number) => {
    const inst = installationById(store, Number(c.req.param("installation_id")));
    if (!inst || inst.appId !== appId) throw githubErrors.notFound(INSTALL_DOC);
    return inst;
  };
  return (
    new Hono<SandboxEnv>()
      .get("/app", (c) => c.json(appPayload(requireApp(c), store, urls)))
      // The App's installations, oldest first (GitHub's order), as a plain array with Link pagination.
      .get("/app/installations", (c) => {
        const app = requireApp(c);
        const all = (store.data.installations ?? [])
          .filter((i) => i.appId === app.id)
          .map((i) => listedInstallation(installationPayload(i, store, urls)));
        return c.json(paginate(c, all, `${urls.api}/app/installations`).items);
      })
      .get("/app/installations/:installation_id{[0-9]+}", (c) => {
        const app = requireApp(c);
        return c.json(installationPayload(installationFor(c, app.id), store, urls));
      })
      .post("/app/installations/:installation_id{[0-9]+}/access_tokens", async (c) => {
        const app = requireApp(c);
        const inst = installationFor(c, app.id);
        const body = await readJson(c);
        const reach = installationRepoIds(store, inst);
        let repoIds: number[] | null = null;
        if (Array.isArray(body.repositories) || Array.isArray(body.repository_ids)) {
          const names = Array.isArray(body.repositories) ? body.repositories : [];
          const ids = Array.isArray(body.repository_ids) ? body.repository_ids : [];
          repoIds = [
            ...names.map((n) => store.repo(inst.account, String(n))?.id ?? -1),
            ...ids.map((id) => (typeof id === "number" ? id : -1)),
          ];
        }
        const minted = mintInstallationToken(store, inst, repoIds, permissionsOf(body.permissions));
        const ids = minted.repoIds ?? reach;
        return c.json(
          {
            token: minted.token,
            expires_at: new Date(minted.expiresAt).toISOString().replace(/\.\d{3}Z$/, "Z"),
            permissions: minted.permissions,
            repository_selection: minted.repoIds ? "selected" : inst.repositorySelection,
            ...(minted.repoIds ? { repositories: installationRepositories(ids, store, urls, null) } : {}),
          },
          201,
        );
      })
      .get("/installation/repositories", (c) => {
        const auth = c.get("auth");
        if (!auth?.installation)
          throw githubErrors.forbidden(
            "You must authenticate with an installation access token in order to list repositories for an installation.",
            `${INSTALL_DOC}#list-repositories-accessible-to-the-app-installation`,
          );
        const inst = installationById(store, auth.installation.id);
        const all = installationRepositories(auth.installation.repoIds, store, urls, null);
        const page = paginate(c, all, `${urls.api}/installation/repositories`);
        return c.json({
          total_count: all.length,
          repository_selection: inst?.repositorySelection ?? "selected",
          repositories: page.items,
        });
      })
      .get("/user/installations", (c) => {
        const token = requireUser(c, `${INSTALL_DOC}#list-app-installations-accessible-to-the-user-access-token`);
        const all = installationsOf(store, token.login).map((i) => installationPayload(i, store, urls));
        const page = paginate(c, all, `${urls.api}/user/installations`);
        return c.json({ total_count: all.length, installations: page.items });
      })
      .get("/user/installations/:installation_id{[0-9]+}/repositories", (c) => {
        const doc = `${INSTALL_DOC}#list-repositories-accessible-to-the-user-access-token`;
        const token = requireUser(c, doc);
        const inst = installationsOf(store, token.login).find((i) => i.id === Number(c.req.param("installation_id")));
        if (!inst) throw githubErrors.notFound(doc);
        const all = installationRepositories(installationRepoIds(store, inst), store, urls, token.login);
        const page = paginate(c, all, `${urls.api}/user/installations/${inst.id}/repositories`);
        return c.json({
          total_count: all.length,
          repository_selection: inst.repositorySelection,
          repositories: page.items,
        });
      })
      .post("/app-manifests/:code/conversions", (c) => {
        const doc = `${DOC}#create-a-github-app-from-a-manifest`;
        const code = c.req.param("code");
        const found = (store.data.manifestCodes ?? []).find((m) => m.code === code);
        if (!found || found.used || found.expiresAt <= Date.now()) throw githubErrors.notFound(doc);
        store.mutate(() => void (found.used = true));
        const m = found.manifest;
        const hook = (m.hook_attributes ?? {}) as { url?: unknown };
        const name = typeof m.name === "string" && m.name.trim() ? m.name.trim() : "Fixloop";
        const slug = `${name
          .toLowerCase()
          .replace(/[^a-z0-9]+/g, "-")
          .replace(/^-|-$/g, "")}-${crypto.randomBytes(3).toString("hex")}`;
        const app = registerApp(store, {
          slug,
          name,
          owner: found.owner,
          webhookSecret: crypto.randomBytes(20).toString("hex"),
          webhookUrl: typeof hook.url === "string" ? hook.url : null,
          setupUrl: typeof m.setup_url === "string" ? m.setup_url : null,
          callbackUrls: Array.isArray(m.callback_urls) ? m.callback_urls.map(String) : [],
          ...(m.default_permissions ? { permissions: permissionsOf(m.default_permissions) ?? {} } : {}),
          ...(Array.isArray(m.default_events) ? { events: m.default_events.map(String) } : {}),
        });
        return c.json(
          {
            ...appPayload(app, store, urls),
            client_secret: app.clientSecret,
            webhook_secret: app.webhookSecret,
            pem: app.pem,
          },
          201,
        );
      })
  );
}
