import type { OrgRecord, SandboxState, UserRecord } from "./state";
import { avatarUrl, nodeId, type Urls } from "./urls";

export function simpleUser(user: Pick<UserRecord, "id" | "login">, urls: Urls, type: "User" | "Organization" = "User") {
  const u = `${urls.api}/users/${user.login}`;
  return {
    login: user.login,
    id: user.id,
    node_id: nodeId(type, user.id),
    avatar_url: avatarUrl(urls, user.id),
    gravatar_id: "",
    url: u,
    html_url: `${urls.html}/${user.login}`,
    followers_url: `${u}/followers`,
    following_url: `${u}/following{/other_user}`,
    gists_url: `${u}/gists{/gist_id}`,
    starred_url: `${u}/starred{/owner}{/repo}`,
    subscriptions_url: `${u}/subscriptions`,
    organizations_url: `${u}/orgs`,
    repos_url: `${u}/repos`,
    events_url: `${u}/events{/privacy}`,
    received_events_url: `${u}/received_events`,
    type,
    user_view_type: "public",
    site_admin: false,
  };
}

/** An organisation where GitHub nests an account (a repository's `owner`): the simple-user shape, typed Organization. */
export const simpleOrg = (org: OrgRecord, urls: Urls) => simpleUser(org, urls, "Organization");

/** The authenticated user's own view (GET /user): public profile plus private counters. */
export function privateUser(user: UserRecord, state: SandboxState, urls: Urls) {
  const owned = state.repos.filter((r) => r.owner === user.login);
  const privateCount = owned.filter((r) => r.private).length;
  return {
    ...simpleUser(user, urls),
    user_view_type: "private",
    name: user.name,
    company: user.company,
    blog: "",
    location: user.location,
    email: user.email,
    notification_email: user.email,
    hireable: null,
    bio: user.bio,
    twitter_username: null,
    public_repos: owned.length - privateCount,
    public_gists: 0,
    followers: 0,
    following: 0,
    created_at: user.createdAt,
    updated_at: user.createdAt,
    private_gists: 0,
    total_private_repos: privateCount,
    owned_private_repos: privateCount,
    disk_usage: 0,
    collaborators: 0,
    two_factor_authentication: false,
    plan: { name: user.plan ?? "free", space: 976562499, collaborators: 0, private_repos: 10000 },
  };
}

export function userEmails(user: UserRecord) {
  return [
    { email: user.email, primary: true, verified: true, visibility: "public" },
    { email: `${user.id}+${user.login}@users.noreply.github.com`, primary: false, verified: true, visibility: null },
  ];
}
