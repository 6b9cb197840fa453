import type { RepoRecord } from "./state";
import type { HookShapes } from "./webhooks.shapes";

/** `repository` deliveries: renamed, transferred. */
export function repositoryPayloads({ user, repo, org }: HookShapes) {
  return {
    /** `repository` `renamed`: `r` under its new name, `from` its old name (without the owner). */
    renamed(r: RepoRecord, from: string, sender: string) {
      return {
        action: "renamed",
        changes: { repository: { name: { from } } },
        repository: repo(r),
        ...org(r),
        sender: user(sender),
      };
    },
    /** `repository` `transferred`: `r` under its new owner, `from` the login of the old one. */
    transferred(r: RepoRecord, from: string, sender: string) {
      return {
        action: "transferred",
        changes: { owner: { from: { user: user(from) } } },
        repository: repo(r),
        ...org(r),
        sender: user(sender),
      };
    },
  };
}
