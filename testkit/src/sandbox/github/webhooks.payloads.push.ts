import type { ParsedCommit } from "./git-parse";
import type { RepoRecord } from "./state";
import type { HookShapes } from "./webhooks.shapes";

/** `push` deliveries: the commits a ref update added. */
export function pushPayloads({ store, urls, user, repo, org }: HookShapes) {
  return {
    push(
      r: RepoRecord,
      ref: string,
      before: string,
      after: string,
      commits: { commit: ParsedCommit; files: [string, string][] }[],
      pusher: string,
    ) {
      const html = `${urls.html}/${r.owner}/${r.name}`;
      const who = store.user(pusher);
      const list = commits.map(({ commit: c, files }) => ({
        id: c.sha,
        tree_id: c.tree,
        distinct: true,
        message: c.message,
        timestamp: c.committer.date,
        url: `${html}/commit/${c.sha}`,
        author: { name: c.author.name, email: c.author.email, date: c.author.date },
        committer: { name: c.committer.name, email: c.committer.email, date: c.committer.date },
        added: files.filter(([s]) => s === "A").map(([, p]) => p),
        removed: files.filter(([s]) => s === "D").map(([, p]) => p),
        modified: files.filter(([s]) => s !== "A" && s !== "D").map(([, p]) => p),
      }));
      return {
        ref,
        before,
        after,
        created: false,
        deleted: false,
        forced: false,
        base_ref: null,
        compare: `${html}/compare/${before.slice(0, 12)}...${after.slice(0, 12)}`,
        commits: list,
        head_commit: list[list.length - 1] ?? null,
        repository: {
          ...repo(r),
          pushed_at: Math.floor(Date.now() / 1000),
          created_at: Math.floor(Date.parse(r.createdAt) / 1000),
        },
        ...org(r),
        pusher: { name: pusher, email: who?.email ?? null },
        sender: user(pusher),
      };
    },
  };
}
