import type { SandboxDeps } from "./context";
import {
  isoNow,
  type OrgBasePermission,
  type OrgRecord,
  type RepoRecord,
  type RepoRole,
  type TeamRecord,
} from "./state";

/** Controls over organisations, their members and teams, acting as GitHub's own settings pages would. */
export interface OrgControls {
  /** Creates an organisation account; its members get `defaultPermission` on its repositories (`read` unless told, as on GitHub). */
  createOrganization(login: string, o?: { name?: string; defaultPermission?: OrgBasePermission }): void;
  /** An org owner changes the base permission its members have on every repository of the organisation. */
  setOrgBasePermission(org: string, permission: OrgBasePermission): void;
  /** The user joins the organisation (`admin`: an org owner, admin on all its repositories). */
  addOrgMember(org: string, login: string, role?: "admin" | "member"): void;
  /** Creates team `slug` in the organisation with these members. */
  createTeam(org: string, slug: string, members?: string[]): void;
  addTeamMember(org: string, slug: string, login: string): void;
  removeTeamMember(org: string, slug: string, login: string): void;
  /** The team is given `permission` on the organisation's repository `repo` (replacing an earlier grant). */
  addTeamRepository(org: string, slug: string, repo: string, permission: RepoRole): void;
}

export function orgControls({ store }: SandboxDeps, repoOf: (owner: string, name: string) => RepoRecord): OrgControls {
  const orgOf = (login: string): OrgRecord => {
    const org = store.org(login);
    if (!org) throw new Error(`github sandbox: no organization ${login}`);
    return org;
  };
  const teamOf = (org: string, slug: string): TeamRecord => {
    const team = orgOf(org).teams.find((t) => t.slug === slug);
    if (!team) throw new Error(`github sandbox: no team ${org}/${slug}`);
    return team;
  };
  const userOf = (login: string) => {
    const user = store.user(login);
    if (!user) throw new Error(`github sandbox: no user ${login}`);
    return user;
  };

  return {
    createOrganization(login, o = {}) {
      if (store.user(login) || store.org(login)) throw new Error(`github sandbox: the login ${login} is taken`);
      store.mutate((s) =>
        (s.orgs ??= []).push({
          id: store.nextId(),
          login,
          name: o.name ?? login,
          createdAt: isoNow(),
          defaultPermission: o.defaultPermission ?? "read",
          members: [],
          teams: [],
        }),
      );
    },
    setOrgBasePermission(org, permission) {
      const found = orgOf(org);
      store.mutate(() => (found.defaultPermission = permission));
    },
    addOrgMember(org, login, role = "member") {
      const found = orgOf(org);
      const user = userOf(login);
      store.mutate(() => {
        found.members = found.members.filter((m) => m.login !== user.login);
        found.members.push({ login: user.login, role });
      });
    },
    createTeam(org, slug, members = []) {
      const found = orgOf(org);
      if (found.teams.some((t) => t.slug === slug)) throw new Error(`github sandbox: team ${org}/${slug} exists`);
      const logins = members.map((m) => userOf(m).login);
      if (logins.some((l) => !found.members.some((m) => m.login === l)))
        throw new Error(`github sandbox: team members must belong to ${org}`);
      store.mutate(() => found.teams.push({ id: store.nextId(), slug, name: slug, members: logins, repos: [] }));
    },
    addTeamMember(org, slug, login) {
      const team = teamOf(org, slug);
      const user = userOf(login);
      if (!orgOf(org).members.some((m) => m.login === user.login))
        throw new Error(`github sandbox: ${login} is not a member of ${org}`);
      store.mutate(() => {
        if (!team.members.includes(user.login)) team.members.push(user.login);
      });
    },
    removeTeamMember(org, slug, login) {
      const team = teamOf(org, slug);
      store.mutate(() => (team.members = team.members.filter((m) => m.toLowerCase() !== login.toLowerCase())));
    },
    addTeamRepository(org, slug, name, permission) {
      const team = teamOf(org, slug);
      const repo = repoOf(org, name);
      store.mutate(() => {
        team.repos = team.repos.filter((g) => g.repoId !== repo.id);
        team.repos.push({ repoId: repo.id, permission });
      });
    },
  };
}
