import type { AppRecord, InstallationRecord } from "./apps.records";
import { installationRepoIds } from "./apps.service";
import { repository } from "./repos.payloads";
import type { StateStore } from "./state";
import { nodeId, type Urls } from "./urls";
import { simpleOrg, simpleUser } from "./users.payloads";

function accountOf(store: StateStore, login: string, urls: Urls) {
  const user = store.user(login);
  if (user) return simpleUser(user, urls);
  const org = store.org(login);
  if (org) return simpleOrg(org, urls);
  throw new Error(`sandbox state: installation account ${login} has no record`);
}

/** GET /app, and the App half of a manifest conversion. */
export function appPayload(app: AppRecord, store: StateStore, urls: Urls) {
  const owner = app.owner ? accountOf(store, app.owner, urls) : null;
  return {
    id: app.id,
    slug: app.slug,
    node_id: nodeId("Integration", app.id),
    client_id: app.clientId,
    owner,
    name: app.name,
    description: null,
    external_url: urls.html,
    html_url: `${urls.html}/apps/${app.slug}`,
    created_at: app.createdAt,
    updated_at: app.createdAt,
    permissions: app.permissions,
    events: app.events,
    installations_count: (store.data.installations ?? []).filter((i) => i.appId === app.id).length,
  };
}

/** The `installation` object of the REST API. */
export function installationPayload(inst: InstallationRecord, store: StateStore, urls: Urls) {
  const app = (store.data.apps ?? []).find((a) => a.id === inst.appId);
  const account = accountOf(store, inst.account, urls);
  const isOrg = account.type === "Organization";
  return {
    id: inst.id,
    client_id: app?.clientId,
    account,
    repository_selection: inst.repositorySelection,
    access_tokens_url: `${urls.api}/app/installations/${inst.id}/access_tokens`,
    repositories_url: `${urls.api}/installation/repositories`,
    html_url: isOrg
      ? `${urls.html}/organizations/${inst.account}/settings/installations/${inst.id}`
      : `${urls.html}/settings/installations/${inst.id}`,
    app_id: inst.appId,
    app_slug: app?.slug ?? "",
    target_id: account.id,
    target_type: account.type,
    permissions: inst.permissions,
    events: inst.events,
    created_at: inst.createdAt,
    updated_at: inst.updatedAt,
    single_file_name: null,
    has_multiple_single_files: false,
    single_file_paths: [],
    suspended_by: inst.suspendedBy
      ? simpleUser(store.user(inst.suspendedBy) ?? { id: 0, login: inst.suspendedBy }, urls)
      : null,
    suspended_at: inst.suspendedAt,
  };
}

/** The repositories an installation (or a token narrowed within it) reaches, as the installation endpoints list them. */
export function installationRepositories(repoIds: number[], store: StateStore, urls: Urls, viewer: string | null) {
  return store.data.repos.filter((r) => repoIds.includes(r.id)).map((r) => repository(r, store, urls, viewer));
}

export { installationRepoIds };
