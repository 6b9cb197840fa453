import type { IssueGone } from "@fixloop/contract";
import type { Logger } from "pino";
import type { GithubClient } from "./github.client";
import { markIssueGone, type RepositoryRef, type RunCancelDeps } from "../runs.cancel";

/** GitHub's word that an issue is no longer where it was: deleted, or transferred (to `movedTo`). */
export interface IssueGoneOnGithub {
  reason: IssueGone;
  movedTo: string | null;
}

/** Longest address kept for an issue's new place. */
const MOVED_TO_MAX = 500;

/** Only an http(s) address is kept (it is shown as a link); anything else from GitHub is dropped. */
export function safeUrl(value: unknown): string | null {
  if (typeof value !== "string" || value.length > MOVED_TO_MAX) return null;
  try {
    const url = new URL(value);
    return url.protocol === "https:" || url.protocol === "http:" ? url.toString() : null;
  } catch {
    return null;
  }
}

const lower = (s: unknown) => (typeof s === "string" ? s.toLowerCase() : "");

/**
 * Asks GitHub for issue `number` of `owner/repo`. GitHub answers 410 for a deleted issue and 301
 * (followed here) to the new place for a transferred one; a renamed repository redirects too, so
 * an issue found in another repository is a transfer only when the repository itself did not move
 * there. Null when the issue is still there, or when GitHub says nothing either way (a 404, a
 * rate limit, an outage): only GitHub's own answer marks an issue gone.
 */
export async function issueGoneOnGithub(
  gh: GithubClient,
  owner: string,
  repo: string,
  number: number,
): Promise<IssueGoneOnGithub | null> {
  let found: { number?: unknown; repository_url?: unknown; html_url?: unknown };
  try {
    found = (await gh.rest.issues.get({ owner, repo, issue_number: number })).data;
  } catch (err) {
    if ((err as { status?: number }).status === 410) return { reason: "deleted", movedTo: null };
    return null;
  }
  const here = `/repos/${owner}/${repo}`.toLowerCase();
  if (found.number === number && lower(found.repository_url).endsWith(here)) return null;
  try {
    const { data: current } = await gh.rest.repos.get({ owner, repo });
    if (found.number === number && lower(current.url) === lower(found.repository_url)) return null;
  } catch {
    // The repository itself cannot be read: the redirect alone is not taken as a transfer.
    return null;
  }
  return { reason: "transferred", movedTo: safeUrl(found.html_url) };
}

/**
 * Asks GitHub whether issue `number` of repository `repo` is still there (see `issueGoneOnGithub`);
 * when GitHub says it is gone, every user's row of it is marked so, and their runs of it stopped
 * (see `markIssueGone`), before the answer is returned.
 */
export async function checkIssueOnGithub(
  deps: RunCancelDeps & { logger: Pick<Logger, "info"> },
  gh: GithubClient,
  repo: RepositoryRef,
  number: number,
): Promise<IssueGoneOnGithub | null> {
  const [owner = "", name = ""] = repo.fullName.split("/");
  const gone = await issueGoneOnGithub(gh, owner, name, number);
  if (gone) await markIssueGone(deps, repo, number, gone);
  return gone;
}
