import type { GithubForUser } from "../github/github.account";

/** Whether a label may start a paid run, and why not when it may not. */
export type SenderVerdict = { ok: true } | { ok: false; reason: string };

const same = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();

/**
 * Who may start a solve by label: someone with write access to the repository on GitHub (admin,
 * maintain or write; GitHub's `permission` reports maintain as write), or a login the enabling user
 * listed (a bot or an auto-labeler they trust). A label added by an issue template, a bot or an
 * auto-labeler on an outsider's issue is sent by the outsider or the bot, who has neither.
 *
 * The repository sync sees labels, not who added them: there the author stands in for the
 * sender, so only issues opened by someone who may trigger are solved (a label a maintainer puts on
 * an outsider's issue needs the webhook, which names its sender).
 */
export async function senderMayTrigger(
  gh: GithubForUser,
  repo: { owner: string; name: string; allowedSenders: string[] },
  sender: string | null,
  author: string | null,
): Promise<SenderVerdict> {
  const who = sender ?? author;
  if (!who)
    return { ok: false, reason: "GitHub does not say who opened the issue, so no one can be checked for write access" };
  if (repo.allowedSenders.some((s) => same(s, who))) return { ok: true };
  const role = await permissionOf(gh, repo.owner, repo.name, who);
  if (role === "admin" || role === "write") return { ok: true };
  const has = role === null ? "is not a GitHub user with access to" : `has only ${role} access to`;
  return {
    ok: false,
    reason: sender
      ? `${who} ${has} ${repo.owner}/${repo.name}: a label starts a solve only when added by someone with write access, or by a sender listed in these settings`
      : `the repository sync cannot tell who added the label, and the issue's author ${who} ${has} ${repo.owner}/${repo.name}: set up the webhook so a maintainer's label is seen with its sender, or list the sender here`,
  };
}

/** The user's legacy base permission on the repository (`admin`, `write`, `read`, `none`); null for a login GitHub does not know as a user (bots included). */
async function permissionOf(gh: GithubForUser, owner: string, repo: string, username: string): Promise<string | null> {
  try {
    const { data } = await gh.client.rest.repos.getCollaboratorPermissionLevel({ owner, repo, username });
    return data.permission;
  } catch (err) {
    if ((err as { status?: number }).status === 404) return null;
    throw err;
  }
}
