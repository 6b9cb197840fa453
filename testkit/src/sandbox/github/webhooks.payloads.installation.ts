import { installationPayload } from "./apps.payloads";
import type { InstallationRecord } from "./apps.records";
import type { SandboxDeps } from "./context";
import type { RepoRecord } from "./state";
import { nodeId } from "./urls";
import { simpleUser } from "./users.payloads";

type Action = "created" | "deleted" | "suspend" | "unsuspend" | "new_permissions_accepted";

/** `installation` and `installation_repositories` deliveries, in the published webhook schemas' shapes. */
export function installationHookPayloads(deps: SandboxDeps) {
  const { store, urls } = deps;
  const strip = <T extends { user_view_type?: unknown }>({ user_view_type: _v, ...rest }: T) => rest;
  const installation = (inst: InstallationRecord) => {
    const { client_id: _c, account, suspended_by, ...rest } = installationPayload(inst, store, urls);
    return { ...rest, account: strip(account), suspended_by: suspended_by ? strip(suspended_by) : null };
  };
  const sender = (login: string) => {
    const user = store.user(login);
    if (!user) throw new Error(`sandbox state: unknown user ${login}`);
    return strip(simpleUser(user, urls));
  };
  const brief = (r: RepoRecord) => ({
    id: r.id,
    node_id: nodeId("Repository", r.id),
    name: r.name,
    full_name: `${r.owner}/${r.name}`,
    private: r.private,
  });
  return {
    /** `installation` with `action`; created/deleted/suspend/unsuspend list the repositories it reaches. */
    installation(inst: InstallationRecord, action: Action, repos: RepoRecord[], by: string) {
      return {
        action,
        installation: installation(inst),
        repositories: repos.map(brief),
        sender: sender(by),
      };
    },
    /** `installation_repositories` `added` or `removed`. */
    repositories(inst: InstallationRecord, added: RepoRecord[], removed: RepoRecord[], by: string) {
      return {
        action: added.length > 0 ? "added" : "removed",
        installation: installation(inst),
        repository_selection: inst.repositorySelection,
        repositories_added: added.map(brief),
        repositories_removed: removed.map(brief),
        requester: null,
        sender: sender(by),
      };
    },
  };
}
