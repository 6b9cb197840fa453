import { Hono } from "hono";
import { readableRepo } from "./access";
import type { SandboxDeps, SandboxEnv } from "./context";
import { githubErrors } from "./errors";
import { roleOf } from "./orgs";
import { REPO_ROLES, type RepoRole } from "./state";
import { simpleUser } from "./users.payloads";

const PERMISSION_DOC = "https://docs.github.com/rest/collaborators/collaborators#get-repository-permissions-for-a-user";

/** GitHub's legacy base role for a role: maintain counts as write, triage as read. */
const LEGACY: Record<RepoRole, "admin" | "write" | "read"> = {
  admin: "admin",
  maintain: "write",
  push: "write",
  triage: "read",
  pull: "read",
};
const ROLE_NAME: Record<RepoRole, string> = {
  admin: "admin",
  maintain: "maintain",
  push: "write",
  triage: "triage",
  pull: "read",
};

/**
 * `GET /repos/{owner}/{repo}/collaborators/{username}/permission`: a user's permission on a
 * repository as GitHub reports it (owner admin, collaborators write, organisation roles; anyone
 * else `read` on a public repository, `none` on a private one). An unknown login (an app's bot
 * among them: bots are no users here) answers 404, as GitHub does for a login that is not a user.
 */
export function collaboratorsRoutes(deps: SandboxDeps) {
  const { store, urls } = deps;
  return new Hono<SandboxEnv>().get("/collaborators/:username/permission", (c) => {
    const repo = readableRepo(deps, c, PERMISSION_DOC);
    const user = store.user(c.req.param("username"));
    if (!user) throw githubErrors.notFound(PERMISSION_DOC);
    const role = roleOf(store, repo, user.login);
    const permission = role ? LEGACY[role] : repo.private ? "none" : "read";
    const roleName = role ? ROLE_NAME[role] : permission;
    const p = (r: RepoRole) => role !== null && REPO_ROLES.indexOf(role) >= REPO_ROLES.indexOf(r);
    return c.json({
      permission,
      role_name: roleName,
      user: {
        ...simpleUser(user, urls),
        permissions: {
          pull: p("pull") || !repo.private,
          triage: p("triage"),
          push: p("push"),
          maintain: p("maintain"),
          admin: p("admin"),
        },
        role_name: roleName,
      },
    });
  });
}
