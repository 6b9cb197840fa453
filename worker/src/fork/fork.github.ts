import { findFork, type GithubClient, type RepoRef, GithubError } from "@fixloop/runtime";

export { findFork, type RepoRef } from "@fixloop/runtime";

/**
 * The user's fork of `upstream` with its git data ready: the existing one (never a second one),
 * else a new one. On the user's own repository there is nothing to fork: it is its own head.
 */
export async function forkOf(
  gh: GithubClient,
  login: string,
  upstream: RepoRef,
  signal: AbortSignal,
): Promise<{ fork: RepoRef; isNew: boolean }> {
  if (upstream.owner.login.toLowerCase() === login.toLowerCase()) return { fork: upstream, isNew: false };
  let fork = await findFork(gh, login, upstream);
  const isNew = !fork;
  if (!fork) {
    fork = (
      await gh.rest.repos.createFork({ owner: upstream.owner.login, repo: upstream.name, default_branch_only: false })
    ).data;
  }
  await waitForFork(gh, fork, signal);
  return { fork, isNew };
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
