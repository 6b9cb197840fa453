import { REPO_ROLES, type OrgBasePermission, type RepoRecord, type RepoRole, type StateStore } from "./state";

const BASE_ROLE: Record<OrgBasePermission, RepoRole | null> = {
  none: null,
  read: "pull",
  write: "push",
  admin: "admin",
};

const rank = (role: RepoRole | null): number => (role === null ? -1 : REPO_ROLES.indexOf(role));
const strongest = (roles: (RepoRole | null)[]): RepoRole | null =>
  roles.reduce<RepoRole | null>((best, r) => (rank(r) > rank(best) ? r : best), null);

const same = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();

/**
 * The role the organisation owning `repo` gives its member `login` (org owner, base permission, or
 * the teams' grants, the strongest); null for a non-member or a member it gives no access.
 */
export function orgRoleOf(store: StateStore, repo: RepoRecord, login: string): RepoRole | null {
  const org = store.org(repo.owner);
  const member = org?.members.find((m) => same(m.login, login));
  if (!org || !member) return null;
  if (member.role === "admin") return "admin";
  const teams = org.teams.filter((t) => t.members.some((m) => same(m, login)));
  const grants = teams.flatMap((t) => t.repos.filter((g) => g.repoId === repo.id).map((g) => g.permission));
  return strongest([BASE_ROLE[org.defaultPermission], ...grants]);
}

/**
 * The effective role of `login` on `repo` (null: none beyond what the public has). Owners are admins;
 * collaborators push (the stand-in has no per-collaborator roles); organisation access adds to that.
 */
export function roleOf(store: StateStore, repo: RepoRecord, login: string | null): RepoRole | null {
  if (login === null) return null;
  if (same(repo.owner, login)) return "admin";
  const collaborator = repo.collaborators.some((c) => same(c, login)) ? "push" : null;
  return strongest([collaborator, orgRoleOf(store, repo, login)]);
}

/**
 * The user who acts on `repo` for an in-process control: `by` when given (it must be a user with at
 * least `need` on the repository), else the owner when a user owns it, else an owner (admin member)
 * of the organisation. Organisations never act themselves on GitHub: they merge, close and send nothing.
 */
export function actingUser(store: StateStore, repo: RepoRecord, by: string | undefined, need: RepoRole): string {
  if (by !== undefined) {
    const user = store.user(by);
    if (!user) throw new Error(`github sandbox: ${by} is not a user; only users act on ${repo.owner}/${repo.name}`);
    if (rank(roleOf(store, repo, user.login)) < rank(need))
      throw new Error(`github sandbox: ${user.login} lacks ${need} access to ${repo.owner}/${repo.name}`);
    return user.login;
  }
  const owner = store.user(repo.owner);
  if (owner) return owner.login;
  const admin = store.org(repo.owner)?.members.find((m) => m.role === "admin" && store.user(m.login));
  if (!admin)
    throw new Error(
      `github sandbox: ${repo.owner} has no owner to act on ${repo.owner}/${repo.name}; add an admin member or pass a user`,
    );
  return admin.login;
}
