import fs from "node:fs";
import path from "node:path";
import type { SandboxDeps } from "./context";
import { isoNow, type RepoRecord } from "./state";
import { webhookPayloads } from "./webhooks.payloads";

/** A repository changing its name or owner on GitHub, with the redirects and webhooks that follow. */
export interface MoveControls {
  /**
   * The owner renames the repository on GitHub (its id stays) and `repository` `renamed` is
   * delivered. The old name answers 301 to `/repositories/{id}/…` afterwards, as on GitHub,
   * until another repository takes it.
   */
  renameRepository(owner: string, repo: string, newName: string): Promise<void>;
  /**
   * The owner transfers the repository to the account `newOwner` (a user or an organisation) and `repository` `transferred` is
   * delivered; the old owner/name redirects as after a rename.
   */
  transferRepository(owner: string, repo: string, newOwner: string): Promise<void>;
}

export function moveControls(deps: SandboxDeps, repoOf: (owner: string, name: string) => RepoRecord): MoveControls {
  const { store, git } = deps;

  /** Moves the repository's record and its git directory to `owner/name` (taken names are refused, as on GitHub). */
  const move = async (repo: RepoRecord, owner: string, name: string) => {
    const taken = store.repo(owner, name);
    if (taken && taken !== repo) throw new Error(`github sandbox: ${owner}/${name} already exists`);
    const from = git.dir(repo.owner, repo.name);
    const to = git.dir(owner, name);
    await git.lock(from, async () => {
      if (from !== to && fs.existsSync(from)) {
        fs.mkdirSync(path.dirname(to), { recursive: true });
        fs.renameSync(from, to);
      }
      store.mutate((s) => {
        // The old name keeps redirecting here (the latest repository to leave a name wins it).
        const same = (r: { owner: string; name: string }, o: string, n: string) =>
          r.owner.toLowerCase() === o.toLowerCase() && r.name.toLowerCase() === n.toLowerCase();
        s.repoRedirects = (s.repoRedirects ?? []).filter(
          (r) => !same(r, repo.owner, repo.name) && !same(r, owner, name),
        );
        if (!same(repo, owner, name)) s.repoRedirects.push({ owner: repo.owner, name: repo.name, repoId: repo.id });
        repo.owner = owner;
        repo.name = name;
        repo.updatedAt = isoNow();
      });
    });
  };

  return {
    async renameRepository(owner, name, newName) {
      const repo = repoOf(owner, name);
      const from = repo.name;
      await move(repo, repo.owner, newName);
      deps.hooks.send("repository", webhookPayloads(deps).renamed(repo, from, repo.owner));
    },
    async transferRepository(owner, name, newOwner) {
      const repo = repoOf(owner, name);
      const to = store.user(newOwner) ?? store.org(newOwner);
      if (!to) throw new Error(`github sandbox: no account ${newOwner}`);
      const from = repo.owner;
      await move(repo, to.login, repo.name);
      deps.hooks.send("repository", webhookPayloads(deps).transferred(repo, from, from));
    },
  };
}
