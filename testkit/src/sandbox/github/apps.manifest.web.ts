import { Hono, type Context } from "hono";
import { newManifestCode } from "./apps.control";
import type { SandboxDeps, SandboxEnv } from "./context";
import { escapeHtml as esc, formFields, page } from "./oauth.routes";

/** A manifest code is good for an hour, as on GitHub. */
const MANIFEST_CODE_TTL_MS = 60 * 60 * 1000;

const validUrl = (v: unknown): v is string => {
  if (typeof v !== "string") return false;
  try {
    return ["http:", "https:"].includes(new URL(v).protocol);
  } catch {
    return false;
  }
};

const parseManifest = (raw: string | undefined): Record<string, unknown> | null => {
  try {
    const m: unknown = JSON.parse(raw ?? "");
    return m && typeof m === "object" && !Array.isArray(m) ? (m as Record<string, unknown>) : null;
  } catch {
    return null;
  }
};

const asRecord = (v: unknown): Record<string, unknown> =>
  v && typeof v === "object" && !Array.isArray(v) ? (v as Record<string, unknown>) : {};

/** What GitHub checks before it shows the "Create GitHub App" page; the reason when it refuses. */
function manifestProblem(m: Record<string, unknown>): string | null {
  if (!validUrl(m.url)) return "The manifest needs a url";
  if (!validUrl(m.redirect_url)) return "The manifest needs a redirect_url";
  if (typeof m.name === "string" && m.name.length > 34) return "The name is too long (at most 34 characters)";
  const hook = asRecord(m.hook_attributes);
  if (hook.url !== undefined && !validUrl(hook.url)) return "hook_attributes.url is not a URL";
  for (const [k, v] of Object.entries(asRecord(m.default_permissions)))
    if (v !== "read" && v !== "write") return `Invalid permission level for ${k}`;
  return null;
}

/** The manifest as GitHub's page shows it, for the operator to check before creating the App. */
function manifestSummary(m: Record<string, unknown>): string {
  const hook = asRecord(m.hook_attributes);
  const row = (k: string, v: unknown) =>
    `<tr><th scope="row" style="text-align:left;padding:.2rem .8rem .2rem 0">${esc(k)}</th><td><code>${esc(String(v ?? "—"))}</code></td></tr>`;
  const perms = Object.entries(asRecord(m.default_permissions)).map(([k, v]) => `${String(v)} access to ${k}`);
  const events = Array.isArray(m.default_events) ? m.default_events.map(String) : [];
  return `<table>${row("Homepage URL", m.url)}${row("Webhook URL", hook.url)}${row("Setup URL", m.setup_url)}${row(
    "Callback URLs",
    Array.isArray(m.callback_urls) ? m.callback_urls.join(", ") : "",
  )}${row("Visibility", m.public === true ? "Public" : "Only on this account")}</table>
<p><strong>Permissions:</strong> ${perms.map(esc).join(", ") || "none"}</p>
<p><strong>Events:</strong> ${events.map(esc).join(", ") || "none"}</p>`;
}

/**
 * The manifest flow's pages of github.com: the form a third party posts a manifest to (under the
 * signed-in user's settings or an organisation's), the "Create GitHub App" confirmation, and the
 * redirect back to the manifest's redirect_url with a one-time `code` and the `state`.
 */
export function appManifestWebRoutes(deps: SandboxDeps) {
  const { store } = deps;
  const orgAdmins = (org: string) =>
    store
      .org(org)
      ?.members.filter((m) => m.role === "admin")
      .map((m) => m.login.toLowerCase()) ?? [];
  const newAppPage = async (c: Context<SandboxEnv>, org: string | null) => {
    const f = await formFields(c);
    const manifest = parseManifest(f.manifest);
    if (!manifest) return c.html(page("Invalid manifest", "<h1>Invalid GitHub App manifest</h1>"), 422);
    const problem = manifestProblem(manifest);
    if (problem) return c.html(page("Invalid manifest", `<h1>${esc(problem)}</h1>`), 422);
    if (org && !store.org(org)) return c.html(page("Not Found", "<h1>404</h1>"), 404);
    // Sandbox: no github.com session, so the page asks who creates it (an organisation's admins only).
    const people = store.data.users.filter(
      (u) => !u.login.endsWith("[bot]") && (!org || orgAdmins(org).includes(u.login.toLowerCase())),
    );
    const owner = (login: string) => org ?? login;
    const forms = people.map(
      (u) => `<form class="card" method="post" action="/settings/apps/new/confirm"><span>${esc(u.login)}</span>
<input type="hidden" name="manifest" value="${esc(f.manifest ?? "")}"><input type="hidden" name="state" value="${esc(f.state ?? "")}">
<input type="hidden" name="login" value="${esc(u.login)}"><input type="hidden" name="org" value="${esc(org ?? "")}">
<button type="submit">Create GitHub App for ${esc(owner(u.login))}</button></form>`,
    );
    const name = typeof manifest.name === "string" ? manifest.name : "GitHub App";
    return c.html(
      page(
        "Create GitHub App",
        `<h1>Create GitHub App “${esc(name)}”</h1>${manifestSummary(manifest)}<p>Sandbox: create it as</p>${forms.join("")}`,
      ),
    );
  };
  return new Hono<SandboxEnv>()
    .post("/settings/apps/new", (c) => newAppPage(c, null))
    .post("/organizations/:org/settings/apps/new", (c) => newAppPage(c, c.req.param("org")))
    .post("/settings/apps/new/confirm", async (c) => {
      const f = await formFields(c);
      const user = store.user(f.login ?? "");
      const manifest = parseManifest(f.manifest);
      if (!user || !manifest || manifestProblem(manifest) || !validUrl(manifest.redirect_url))
        return c.html(page("Invalid", "<h1>Invalid request</h1>"), 422);
      const org = f.org ? store.org(f.org) : undefined;
      if (f.org && (!org || !orgAdmins(f.org).includes(user.login.toLowerCase())))
        return c.html(page("Forbidden", "<h1>You cannot create apps for that organization</h1>"), 403);
      const code = newManifestCode();
      store.mutate((s) => {
        s.manifestCodes = [
          ...(s.manifestCodes ?? []).filter((m) => !m.used && m.expiresAt > Date.now()),
          {
            code,
            owner: org?.login ?? user.login,
            manifest,
            expiresAt: Date.now() + MANIFEST_CODE_TTL_MS,
            used: false,
          },
        ];
      });
      const back = new URL(manifest.redirect_url);
      back.searchParams.set("code", code);
      if (f.state) back.searchParams.set("state", f.state);
      return c.redirect(back.toString(), 302);
    });
}
