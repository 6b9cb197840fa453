import type { GithubSandboxControl } from "./control";

/**
 * An organisation on the stand-in, as the contract tests' organisation cases start: monalisa owns
 * it (an admin), `members` are members at its base permission, and it holds the repositories
 * `repos` (each with a `main` branch).
 */
export async function monalisasOrganization(
  control: GithubSandboxControl,
  org: string,
  o: { members?: string[]; repos: string[] },
): Promise<void> {
  control.createOrganization(org);
  control.addOrgMember(org, "monalisa", "admin");
  for (const login of o.members ?? []) control.addOrgMember(org, login);
  for (const repo of o.repos) await control.createRepository(org, repo);
}
