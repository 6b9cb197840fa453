import type { SandboxDeps } from "./context";
import { isPull } from "./pulls.payloads";
import type { pullsService } from "./pulls.service";
import type { RepoRecord } from "./state";
import { webhookPayloads } from "./webhooks.payloads";

/**
 * A branch moved from `before` to `after` (REST ref update): delivers `push`, then
 * `pull_request` synchronize for each open pull request whose head it is, as GitHub does.
 */
export async function announcePush(
  deps: SandboxDeps,
  pulls: ReturnType<typeof pullsService>,
  repo: RepoRecord,
  ref: string,
  before: string,
  after: string,
  pusher: string,
): Promise<void> {
  if (!deps.hooks.active || !ref.startsWith("refs/heads/")) return;
  const dir = deps.git.dir(repo.owner, repo.name);
  const shas = (await deps.git.run(dir, ["rev-list", "--reverse", "--max-count=20", `${before}..${after}`]))
    .toString("utf8")
    .split("\n")
    .filter(Boolean);
  const commits = [];
  for (const sha of shas) {
    const c = await deps.git.readCommit(dir, sha);
    const files = (await deps.git.run(dir, ["diff-tree", "--no-commit-id", "--name-status", "-r", "--root", sha]))
      .toString("utf8")
      .split("\n")
      .filter(Boolean)
      .map((l) => l.split("\t") as [string, string]);
    commits.push({ commit: c, files });
  }
  const payloads = webhookPayloads(deps);
  deps.hooks.send("push", payloads.push(repo, ref, before, after, commits, pusher));
  const branch = ref.slice("refs/heads/".length);
  for (const pr of deps.store.data.issues) {
    if (!isPull(pr) || pr.state !== "open" || pr.pull.headRepoId !== repo.id || pr.pull.headRef !== branch) continue;
    const base = deps.store.repoById(pr.repoId);
    if (!base) continue;
    await pulls.refresh(base, pr);
    deps.hooks.send("pull_request", payloads.synchronize(base, pr, await pulls.stats(base, pr), before, after, pusher));
  }
}
