import { appById, installationRepoIds } from "./apps.service";
import type { StateStore } from "./state";
import { nodeId } from "./urls";
import type { WebhookRouter } from "./webhooks.sender";

const INSTALLATION_EVENTS = new Set(["installation", "installation_repositories"]);

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null;

/**
 * GitHub's per-App delivery: an App with its own webhook (one made by the manifest flow) gets its
 * installations' `installation` events, and the events of every repository an active installation
 * of it reaches that it subscribed to, each with the `installation` field and signed with that
 * App's secret. The configured target keeps what it had before (every repository event, and the
 * installation events of the Apps without a hook of their own: the stand-in's own App).
 */
export function appWebhookRouter(store: StateStore): WebhookRouter {
  return (event, payload) => {
    const p: Record<string, unknown> = { ...payload };
    const hookOf = (appId: unknown) => {
      const app = typeof appId === "number" ? appById(store, appId) : undefined;
      return app?.webhookUrl && app.webhookSecret ? { app, url: app.webhookUrl, secret: app.webhookSecret } : null;
    };
    if (INSTALLATION_EVENTS.has(event)) {
      const inst = isObject(p.installation) ? p.installation : {};
      const hook = hookOf(inst.app_id);
      return hook
        ? { apps: [{ url: hook.url, secret: hook.secret, payload }], toConfigured: false }
        : { apps: [], toConfigured: true };
    }
    const repoId = isObject(p.repository) ? p.repository.id : undefined;
    if (typeof repoId !== "number") return { apps: [], toConfigured: true };
    const apps = (store.data.installations ?? []).flatMap((inst) => {
      const hook = hookOf(inst.appId);
      if (!hook || inst.suspendedAt || !hook.app.events.includes(event)) return [];
      if (!installationRepoIds(store, inst).includes(repoId)) return [];
      const installation = { id: inst.id, node_id: nodeId("Installation", inst.id) };
      return [{ url: hook.url, secret: hook.secret, payload: { ...payload, installation } }];
    });
    return { apps, toConfigured: true };
  };
}
