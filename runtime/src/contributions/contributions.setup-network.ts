import { parse as parseYaml } from "yaml";
import type { GithubClient } from "../github/github.client";
import type { Finding } from "./contributions.findings";

const CONFIG_FILES = [".fixloop.yml", ".fixloop.yaml"];

/** `.fixloop.yml` of the default branch (the first that exists), or null. */
async function readConfig(gh: GithubClient, owner: string, repo: string): Promise<string | null> {
  for (const path of CONFIG_FILES) {
    try {
      const res = await gh.rest.repos.getContent({ owner, repo, path, mediaType: { format: "raw" } });
      const data: unknown = res.data;
      return typeof data === "string" ? data.slice(0, 100_000) : null;
    } catch (err) {
      if ((err as { status?: number }).status !== 404) throw err;
    }
  }
  return null;
}

/**
 * A repository the user does not own whose `.fixloop.yml` asks for network during setup: said on
 * the preview, since it is never granted there until the user chooses allow once / always / never.
 * Nothing for the user's own repository or a file that does not ask (or does not parse).
 */
export async function setupNetworkFinding(
  gh: GithubClient,
  owner: string,
  repo: string,
  login: string,
): Promise<Finding | null> {
  if (owner.toLowerCase() === login.toLowerCase()) return null;
  const raw = await readConfig(gh, owner, repo);
  if (raw === null) return null;
  let parsed: unknown;
  try {
    parsed = parseYaml(raw);
  } catch {
    return null;
  }
  if (!parsed || typeof parsed !== "object" || (parsed as { network?: unknown }).network !== true) return null;
  return {
    code: "setup_network_requested",
    severity: "note",
    message:
      "This repository's .fixloop.yml asks for network during setup. It is not granted to a repository you do not own until you choose: allow once (the next run), always (the repository's test settings) or never (the default; setup runs offline). The solve page asks after a run whose setup wanted it",
    source: { path: ".fixloop.yml", sentence: "network: true" },
  };
}
