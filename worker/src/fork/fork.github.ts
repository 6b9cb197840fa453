import { type GithubClient, type RepoRef, GithubError } from "@fixloop/runtime";

export { findFork, type RepoRef } from "@fixloop/runtime";

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
