import type { GithubClient } from "./github.client";

export interface RepoRef {
  id: number;
  full_name: string;
  html_url: string;
  name: string;
  owner: { login: string };
  default_branch: string;
}

/** The user's existing fork of `upstream`, found by its usual name first, then among the upstream's forks. */
export async function findFork(gh: GithubClient, login: string, upstream: RepoRef): Promise<RepoRef | null> {
  try {
    const { data } = await gh.rest.repos.get({ owner: login, repo: upstream.name });
    const lineage = [data.parent?.full_name, data.source?.full_name];
    if (data.fork && lineage.includes(upstream.full_name)) return data;
  } catch (err) {
    if ((err as { status?: number }).status !== 404) throw err;
  }
  const forks = await gh.paginate(gh.rest.repos.listForks, {
    owner: upstream.owner.login,
    repo: upstream.name,
    per_page: 100,
  });
  const mine = forks.find((f) => f.owner.login.toLowerCase() === login.toLowerCase());
  return mine
    ? {
        id: mine.id,
        full_name: mine.full_name,
        html_url: mine.html_url,
        name: mine.name,
        owner: mine.owner,
        default_branch: mine.default_branch ?? "main",
      }
    : null;
}
