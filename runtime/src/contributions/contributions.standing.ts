import type { Redis } from "ioredis";
import type { GithubClient } from "../github/github.client";
import { GithubError } from "../github/github.errors";
import { policyFindings, readPolicyFiles, type Finding } from "./contributions.checks";

/** How long a repository's contribution rules are trusted before they are read again. */
export const POLICY_CACHE_SECONDS = 300;

const key = (prefix: string, fullName: string) => `${prefix}:contribution-policy:${fullName.toLowerCase()}`;

/** The blocking findings of the repository's contribution rules as they stand, cached briefly per repository. */
export async function standingPolicy(
  gh: GithubClient,
  cache: { redis: Redis; prefix: string },
  fullName: string,
): Promise<Finding[]> {
  const k = key(cache.prefix, fullName);
  const hit = await cache.redis.get(k);
  if (hit !== null) return JSON.parse(hit) as Finding[];
  const [owner = "", repo = ""] = fullName.split("/");
  const blocking = policyFindings(await readPolicyFiles(gh, owner, repo)).filter((f) => f.severity === "blocking");
  await cache.redis.set(k, JSON.stringify(blocking), "EX", POLICY_CACHE_SECONDS);
  return blocking;
}

/**
 * Refuses an action upstream (a run, a pull request) of an imported issue whose repository's rules
 * now block it, though they allowed the import: maintainers may add an AI policy at any time.
 */
export async function assertPolicyStillAllows(
  gh: GithubClient,
  cache: { redis: Redis; prefix: string },
  fullName: string,
): Promise<void> {
  const blocking = await standingPolicy(gh, cache, fullName);
  if (blocking.length)
    throw new GithubError(
      "contributions.blocked",
      `${fullName} no longer accepts this contribution. ${blocking.map((f) => f.message).join(". ")}`,
      409,
    );
}
