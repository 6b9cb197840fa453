import { Hono, type Context } from "hono";
import { installApp } from "./apps.control";
import { appManifestWebRoutes } from "./apps.manifest.web";
import { appBySlug, installationById, installationRepoIds } from "./apps.service";
import type { SandboxDeps, SandboxEnv } from "./context";
import { escapeHtml, page } from "./oauth.routes";
import { installationHookPayloads } from "./webhooks.payloads.installation";

/**
 * github.com's pages for Apps: the installation page (choose the account, all or selected
 * repositories; then back to the App's setup URL); the manifest flow's pages are apps.manifest.web.ts.
 */
export function appsWebRoutes(deps: SandboxDeps) {
  const { store } = deps;
  const hooks = installationHookPayloads(deps);
  const esc = escapeHtml;
  const accountsOf = (login: string) => [
    login,
    ...(store.data.orgs ?? [])
      .filter((o) => o.members.some((m) => m.login.toLowerCase() === login.toLowerCase() && m.role === "admin"))
      .map((o) => o.login),
  ];
  const configure = (c: Context<SandboxEnv>) => {
    const inst = installationById(store, Number(c.req.param("id")));
    const app = inst && (store.data.apps ?? []).find((a) => a.id === inst.appId);
    if (!inst || !app) return c.html(page("Not Found", "<h1>404</h1>"), 404);
    return c.redirect(`/apps/${encodeURIComponent(app.slug)}/installations/new`, 302);
  };
  return (
    new Hono<SandboxEnv>()
      .get("/apps/:slug/installations/new", (c) => {
        const app = appBySlug(store, c.req.param("slug"));
        if (!app) return c.html(page("Not Found", "<h1>404</h1>"), 404);
        const state = c.req.query("state") ?? "";
        const user = store.user(c.req.query("login") ?? "");
        if (!user) {
          const people = store.data.users
            .filter((u) => !u.login.endsWith("[bot]"))
            .map(
              (u) =>
                `<p class="card"><span><strong>${esc(u.login)}</strong> ${esc(u.name)}</span><a href="?login=${encodeURIComponent(u.login)}&state=${encodeURIComponent(state)}">Continue as ${esc(u.login)}</a></p>`,
            );
          return c.html(
            page(
              `Install ${app.name}`,
              `<h1>Install ${esc(app.name)}</h1><p>Sandbox: sign in as</p>${people.join("")}`,
            ),
          );
        }
        const accounts = accountsOf(user.login);
        const repos = store.data.repos.filter((r) => accounts.some((a) => a.toLowerCase() === r.owner.toLowerCase()));
        // As on GitHub's configuration page, an account's installation shows its current choice.
        const installed = (account: string) =>
          (store.data.installations ?? []).find(
            (i) => i.appId === app.id && i.account.toLowerCase() === account.toLowerCase(),
          );
        const current = installed(accounts[0] ?? "");
        const chosen = new Set(
          accounts.flatMap((a) => {
            const inst = installed(a);
            return inst && inst.repositorySelection === "selected" ? installationRepoIds(store, inst) : [];
          }),
        );
        const selected = current?.repositorySelection === "selected";
        const body = `<h1>Install ${esc(app.name)}</h1>
<form method="post"><input type="hidden" name="login" value="${esc(user.login)}"><input type="hidden" name="state" value="${esc(state)}">
<fieldset><legend>Where do you want to install ${esc(app.name)}?</legend>${accounts
          .map(
            (a, i) =>
              `<label><input type="radio" name="account" value="${esc(a)}"${i === 0 ? " checked" : ""}> ${esc(a)}</label><br>`,
          )
          .join("")}</fieldset>
<fieldset><legend>Repository access</legend>
<label><input type="radio" name="selection" value="all"${selected ? "" : " checked"}> All repositories</label><br>
<label><input type="radio" name="selection" value="selected"${selected ? " checked" : ""}> Only select repositories</label><br>
${repos.map((r) => `<label><input type="checkbox" name="repo" value="${esc(`${r.owner}/${r.name}`)}"${chosen.has(r.id) ? " checked" : ""}> ${esc(`${r.owner}/${r.name}`)}</label><br>`).join("")}
</fieldset>
<p>Permissions: ${Object.entries(app.permissions)
          .map(([k, v]) => `${esc(v)} access to ${esc(k.replace(/_/g, " "))}`)
          .join(", ")}</p>
<button type="submit">${current ? "Save" : "Install"}</button></form>`;
        return c.html(page(`Install ${app.name}`, body));
      })
      // GitHub's configuration page of an installation (a user's, an organisation's): the same form.
      .get("/settings/installations/:id", configure)
      .get("/organizations/:org/settings/installations/:id", configure)
      .post("/apps/:slug/installations/new", async (c) => {
        const app = appBySlug(store, c.req.param("slug"));
        if (!app) return c.html(page("Not Found", "<h1>404</h1>"), 404);
        const text = await c.req.text();
        const form = new URLSearchParams(text);
        const user = store.user(form.get("login") ?? "");
        const account = form.get("account") ?? "";
        if (!user || !accountsOf(user.login).some((a) => a.toLowerCase() === account.toLowerCase()))
          return c.html(page("Forbidden", "<h1>You cannot install apps on that account</h1>"), 403);
        const chosen = form.getAll("repo").flatMap((full) => {
          const [owner = "", name = ""] = full.split("/");
          const r = owner.toLowerCase() === account.toLowerCase() ? store.repo(owner, name) : undefined;
          return r ? [r.id] : [];
        });
        if (form.get("selection") === "selected" && chosen.length === 0)
          return c.html(page("Choose repositories", "<h1>Select at least one repository</h1>"), 422);
        const before = (store.data.installations ?? []).find(
          (i) => i.appId === app.id && i.account.toLowerCase() === account.toLowerCase(),
        );
        const had = before ? installationRepoIds(store, before) : null;
        const inst = installApp(deps, app, account, form.get("selection") === "selected" ? chosen : "all");
        const now = installationRepoIds(store, inst);
        const repo = (id: number) => store.repoById(id) ?? [];
        if (!had) deps.hooks.send("installation", hooks.installation(inst, "created", now.flatMap(repo), user.login));
        else {
          const added = now.filter((id) => !had.includes(id)).flatMap(repo);
          const removed = had.filter((id) => !now.includes(id)).flatMap(repo);
          if (added.length)
            deps.hooks.send("installation_repositories", hooks.repositories(inst, added, [], user.login));
          if (removed.length)
            deps.hooks.send("installation_repositories", hooks.repositories(inst, [], removed, user.login));
        }
        if (!app.setupUrl)
          return c.html(page("Installed", `<h1>${esc(app.name)} is installed on ${esc(account)}</h1>`));
        const back = new URL(app.setupUrl);
        back.searchParams.set("installation_id", String(inst.id));
        back.searchParams.set("setup_action", had ? "update" : "install");
        if (form.get("state")) back.searchParams.set("state", form.get("state") ?? "");
        return c.redirect(back.toString(), 302);
      })
      .route("/", appManifestWebRoutes(deps))
  );
}
