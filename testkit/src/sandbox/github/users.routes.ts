import { Hono } from "hono";
import { canRead, hasScope, requireUser } from "./access";
import type { SandboxDeps, SandboxEnv } from "./context";
import { DOCS_URL, githubErrors } from "./errors";
import { paginate } from "./http";
import { orgRoleOf } from "./orgs";
import { repository } from "./repos.payloads";
import type { RepoRecord } from "./state";
import { privateUser, userEmails } from "./users.payloads";

const fullName = (r: RepoRecord): string => `${r.owner}/${r.name}`.toLowerCase();

const SORT_KEYS: Record<string, (r: RepoRecord) => string> = {
  created: (r) => r.createdAt,
  updated: (r) => r.updatedAt,
  pushed: (r) => r.pushedAt,
  full_name: fullName,
};

export function usersRoutes(deps: SandboxDeps) {
  const { store, urls } = deps;
  return new Hono<SandboxEnv>()
    .get("/user", (c) => {
      const token = requireUser(c, `${DOCS_URL.users}#get-the-authenticated-user`);
      const user = store.user(token.login);
      if (!user) throw githubErrors.badCredentials();
      return c.json(privateUser(user, store.data, urls));
    })
    .get("/user/emails", (c) => {
      const token = requireUser(c);
      c.set("acceptedScopes", "user, user:email");
      const user = store.user(token.login);
      if (!user) throw githubErrors.badCredentials();
      if (!hasScope(token, "user", "user:email"))
        throw githubErrors.notFound(
          "https://docs.github.com/rest/users/emails#list-email-addresses-for-the-authenticated-user",
        );
      return c.json(userEmails(user));
    })
    .get("/users/:login", (c) => {
      const user = store.user(c.req.param("login"));
      if (!user) throw githubErrors.notFound(`${DOCS_URL.users}#get-a-user`);
      const {
        plan: _plan,
        private_gists: _pg,
        total_private_repos: _tp,
        owned_private_repos: _op,
        disk_usage: _du,
        collaborators: _co,
        two_factor_authentication: _tf,
        ...pub
      } = privateUser(user, store.data, urls);
      return c.json({ ...pub, user_view_type: "public" });
    })
    .get("/user/repos", (c) => {
      const token = requireUser(c, `${DOCS_URL.repos}#list-repositories-for-the-authenticated-user`);
      const q = (k: string) => c.req.query(k);
      if (q("type") && (q("visibility") || q("affiliation"))) {
        throw githubErrors.unprocessable("If you specify visibility or affiliation, you cannot specify type.");
      }
      const type = q("type") ?? "all";
      const visibility = q("visibility") ?? (type === "public" || type === "private" ? type : "all");
      const affiliation = (
        q("affiliation") ??
        (type === "owner" ? "owner" : type === "member" ? "collaborator" : "owner,collaborator,organization_member")
      ).split(",");
      const me = token.login.toLowerCase();
      const repos = store.data.repos.filter((r) => {
        const own = r.owner.toLowerCase() === me;
        const collab = r.collaborators.some((x) => x.toLowerCase() === me);
        // Through an organisation: its member with a role on the repository (org owner, base permission or a team).
        const member = orgRoleOf(store, r, me) !== null;
        const affiliated =
          (own && affiliation.includes("owner")) ||
          (collab && affiliation.includes("collaborator")) ||
          (member && affiliation.includes("organization_member"));
        if (!affiliated) return false;
        if (visibility !== "all" && (visibility === "private") !== r.private) return false;
        return canRead(store, r, token);
      });
      const key = SORT_KEYS[q("sort") ?? "full_name"] ?? fullName;
      const direction = q("direction") ?? (q("sort") && q("sort") !== "full_name" ? "desc" : "asc");
      repos.sort((a, b) => {
        const cmp = key(a).localeCompare(key(b));
        return direction === "desc" ? -cmp : cmp;
      });
      const page = paginate(c, repos, `${urls.api}/user/repos`);
      return c.json(page.items.map((r) => repository(r, store, urls, token.login)));
    })
    .get("/rate_limit", (c) => {
      const auth = c.get("auth");
      const core = deps.limiter.bucket(auth?.token ?? "anonymous", auth !== null);
      const view = (limit: number, used: number) => ({ limit, used, remaining: limit - used, reset: core.reset });
      const rate = view(core.limit, core.used);
      return c.json({
        resources: {
          core: rate,
          search: view(auth ? 30 : 10, 0),
          graphql: view(auth ? 5000 : 0, 0),
          integration_manifest: view(5000, 0),
          source_import: view(100, 0),
          code_scanning_upload: view(1000, 0),
          actions_runner_registration: view(10000, 0),
          scim: view(15000, 0),
          dependency_snapshots: view(100, 0),
          code_search: view(10, 0),
        },
        rate,
      });
    })
    .get("/users/:login/repos", (c) => {
      const user = store.user(c.req.param("login"));
      if (!user) throw githubErrors.notFound();
      const viewer = c.get("auth");
      const repos = store.data.repos
        .filter((r) => r.owner === user.login && !r.private)
        .sort((a, b) => a.name.localeCompare(b.name));
      const page = paginate(c, repos, `${urls.api}/users/${user.login}/repos`);
      return c.json(page.items.map((r) => repository(r, store, urls, viewer?.login ?? null)));
    });
}
