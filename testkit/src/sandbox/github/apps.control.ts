import crypto from "node:crypto";
import type { AppRecord, InstallationRecord } from "./apps.records";
import { appBySlug, defaultApp, installationById, installationRepoIds } from "./apps.service";
import type { SandboxDeps } from "./context";
import { isoNow, type RepoRecord } from "./state";
import { installationHookPayloads } from "./webhooks.payloads.installation";

/** What a test or `npm start` needs to act as the App (its private key included: the stand-in's own App only). */
export interface SandboxApp {
  id: number;
  slug: string;
  clientId: string;
  pem: string;
}

/** Controls over GitHub Apps and their installations, as a user would act on GitHub's installation pages. */
export interface AppControls {
  /** The stand-in's own App. */
  defaultApp(): SandboxApp;
  /** Where the stand-in's own App sends installers back to (GitHub's "Setup URL"). */
  setDefaultAppSetupUrl(url: string | null): void;
  /** A manifest-created App, by slug. */
  app(slug: string): SandboxApp & { webhookSecret: string | null; webhookUrl: string | null; clientSecret: string };
  /**
   * `by` installs the App (the default one unless `app` says) on `account` (theirs or an organisation's):
   * on every repository, or on the named ones. Delivers `installation.created`; returns the installation id.
   */
  install(account: string, by: string, repos: "all" | string[], app?: string): number;
  /** Adds or removes repositories of a `selected` installation (`installation_repositories`). */
  addInstallationRepositories(installationId: number, names: string[], by: string): void;
  removeInstallationRepositories(installationId: number, names: string[], by: string): void;
  suspendInstallation(installationId: number, by: string): void;
  unsuspendInstallation(installationId: number, by: string): void;
  uninstall(installationId: number, by: string): void;
  /** Every installation token issued so far runs out now (as an hour passing would). */
  expireInstallationTokens(): void;
}

export function appControls(deps: SandboxDeps, repoOf: (owner: string, name: string) => RepoRecord): AppControls {
  const { store } = deps;
  const hooks = installationHookPayloads(deps);
  const instOf = (id: number): InstallationRecord => {
    const inst = installationById(store, id);
    if (!inst) throw new Error(`github sandbox: no installation ${id}`);
    return inst;
  };
  const reposOf = (inst: InstallationRecord) =>
    installationRepoIds(store, inst).flatMap((id) => store.repoById(id) ?? []);
  const plain = (app: AppRecord): SandboxApp => ({ id: app.id, slug: app.slug, clientId: app.clientId, pem: app.pem });
  const control: AppControls = {
    defaultApp: () => plain(defaultApp(store)),
    setDefaultAppSetupUrl(url) {
      const app = defaultApp(store);
      store.mutate(() => void (app.setupUrl = url));
    },
    app(slug) {
      const app = appBySlug(store, slug);
      if (!app) throw new Error(`github sandbox: no app ${slug}`);
      return {
        ...plain(app),
        webhookSecret: app.webhookSecret,
        webhookUrl: app.webhookUrl,
        clientSecret: app.clientSecret,
      };
    },
    install(account, by, repos, slug) {
      const app = slug ? appBySlug(store, slug) : defaultApp(store);
      if (!app) throw new Error(`github sandbox: no app ${slug}`);
      const inst = installApp(deps, app, account, repos === "all" ? "all" : repos.map((n) => repoOf(account, n).id));
      deps.hooks.send("installation", hooks.installation(inst, "created", reposOf(inst), by));
      return inst.id;
    },
    addInstallationRepositories(id, names, by) {
      const inst = instOf(id);
      const added = names.map((n) => repoOf(inst.account, n)).filter((r) => !inst.repoIds.includes(r.id));
      store.mutate(() => {
        inst.repoIds.push(...added.map((r) => r.id));
        inst.updatedAt = isoNow();
      });
      deps.hooks.send("installation_repositories", hooks.repositories(inst, added, [], by));
    },
    removeInstallationRepositories(id, names, by) {
      const inst = instOf(id);
      const removed = names.map((n) => repoOf(inst.account, n)).filter((r) => inst.repoIds.includes(r.id));
      store.mutate(() => {
        inst.repoIds = inst.repoIds.filter((x) => !removed.some((r) => r.id === x));
        inst.updatedAt = isoNow();
      });
      deps.hooks.send("installation_repositories", hooks.repositories(inst, [], removed, by));
    },
    suspendInstallation(id, by) {
      const inst = instOf(id);
      store.mutate(() => Object.assign(inst, { suspendedAt: isoNow(), suspendedBy: by, updatedAt: isoNow() }));
      deps.hooks.send("installation", hooks.installation(inst, "suspend", reposOf(inst), by));
    },
    unsuspendInstallation(id, by) {
      const inst = instOf(id);
      store.mutate(() => Object.assign(inst, { suspendedAt: null, suspendedBy: null, updatedAt: isoNow() }));
      deps.hooks.send("installation", hooks.installation(inst, "unsuspend", reposOf(inst), by));
    },
    uninstall(id, by) {
      const inst = instOf(id);
      const repos = reposOf(inst);
      store.mutate((s) => {
        s.installations = (s.installations ?? []).filter((i) => i.id !== id);
        s.installationTokens = (s.installationTokens ?? []).filter((t) => t.installationId !== id);
      });
      deps.hooks.send("installation", hooks.installation(inst, "deleted", repos, by));
    },
    expireInstallationTokens() {
      store.mutate((s) => {
        for (const t of s.installationTokens ?? []) t.expiresAt = Date.now() - 1;
      });
    },
  };
  return control;
}

/** Creates the installation of `app` on `account`, or changes the repositories of the one there is. */
export function installApp(
  deps: SandboxDeps,
  app: AppRecord,
  account: string,
  repos: "all" | number[],
): InstallationRecord {
  const { store } = deps;
  const now = isoNow();
  const found = (store.data.installations ?? []).find(
    (i) => i.appId === app.id && i.account.toLowerCase() === account.toLowerCase(),
  );
  const fields: Pick<InstallationRecord, "repositorySelection" | "repoIds"> = {
    repositorySelection: repos === "all" ? "all" : "selected",
    repoIds: repos === "all" ? [] : repos,
  };
  if (found) {
    store.mutate(() => Object.assign(found, fields, { updatedAt: now }));
    return found;
  }
  const owner = store.user(account) ?? store.org(account);
  if (!owner) throw new Error(`github sandbox: no account ${account}`);
  const inst: InstallationRecord = {
    id: store.nextId(),
    appId: app.id,
    account: owner.login,
    repositorySelection: repos === "all" ? "all" : "selected",
    repoIds: repos === "all" ? [] : repos,
    permissions: { ...app.permissions },
    events: [...app.events],
    suspendedAt: null,
    suspendedBy: null,
    createdAt: now,
    updatedAt: now,
  };
  store.mutate((s) => void (s.installations = [...(s.installations ?? []), inst]));
  return inst;
}

export const newManifestCode = (): string => crypto.randomBytes(10).toString("hex");
