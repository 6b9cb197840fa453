import { type GithubClient, GithubError } from "@fixloop/runtime";

export interface RepoRef {
  full_name: string;
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
    ? { full_name: mine.full_name, name: mine.name, owner: mine.owner, default_branch: mine.default_branch ?? "main" }
    : null;
}

/**
 * GitHub creates forks asynchronously: the repository exists before its git data does. Polls the
 * default branch ref with growing pauses until it resolves, bounded by `timeoutMs`.
 */
export async function waitForFork(
  gh: GithubClient,
  fork: RepoRef,
  signal: AbortSignal,
  timeoutMs = 60_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (let pause = 250; ; pause = Math.min(pause * 2, 5_000)) {
    try {
      await gh.rest.git.getRef({ owner: fork.owner.login, repo: fork.name, ref: `heads/${fork.default_branch}` });
      return;
    } catch (err) {
      const status = (err as { status?: number }).status;
      if (status !== 404 && status !== 409) throw err;
    }
    if (signal.aborted) throw new Error("fork wait aborted");
    if (Date.now() + pause > deadline)
      throw new GithubError("github.fork_timeout", `The fork ${fork.full_name} was not ready in time; try again`, 504);
    await new Promise((r) => setTimeout(r, pause));
  }
}
