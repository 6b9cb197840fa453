import { Hono } from "hono";
import type { Context } from "hono";
import type { SandboxDeps, SandboxEnv } from "./context";
import { escapeHtml } from "./oauth.routes";
import { addIssueLabels, labelsOf } from "./labels.service";
import type { IssueRecord, RepoRecord } from "./state";

// The issue page's Labels control, offline: whoever walks the sandbox adds a label as any seeded
// user (the owner first, who may label on GitHub), through the same records and signed `issues`
// `labeled` webhook as the REST API, so a repository's "Solve on label" can be tried without GitHub.

/** GitHub's limit on a label's name. */
const LABEL_MAX = 50;

/** The issue's labels and the form that adds one, for the issue page. */
export function labelPanel(deps: SandboxDeps, repo: RepoRecord, issue: IssueRecord): string {
  const { store } = deps;
  const users = store.data.users
    .map((u) => u.login)
    .sort((a, b) => Number(b === repo.owner) - Number(a === repo.owner));
  const labels = labelsOf(repo, issue)
    .map(
      (l) => `<li><span class="label" style="border-color:#${escapeHtml(l.color)}">${escapeHtml(l.name)}</span></li>`,
    )
    .join("");
  const known = repo.labels.map((l) => `<option value="${escapeHtml(l.name)}"></option>`).join("");
  const action = `/${repo.owner}/${repo.name}/issues/${issue.number}/sandbox/label`;
  return `<h2>Labels</h2>${labels ? `<ul class="labels" aria-label="Labels">${labels}</ul>` : `<p class="note">None yet</p>`}
<form method="post" action="${action}" aria-label="Add a label">
<p><label>As <select name="user">${users.map((u) => `<option value="${escapeHtml(u)}">${escapeHtml(u)}</option>`).join("")}</select></label>
<label>Label <input name="label" list="repo-labels" required maxlength="${LABEL_MAX}" autocomplete="off"></label>
<datalist id="repo-labels">${known}</datalist>
<button type="submit">Add label</button></p></form>`;
}

/** The POST target of the label form; answers with a redirect back to the issue page. */
export function webLabelRoutes(deps: SandboxDeps) {
  const { store } = deps;
  return new Hono<SandboxEnv>().post("/:owner/:repo/issues/:number/sandbox/label", async (c: Context<SandboxEnv>) => {
    const repo = store.repo(c.req.param("owner") ?? "", c.req.param("repo") ?? "");
    const issue = repo && !repo.private ? store.issue(repo.id, Number(c.req.param("number"))) : undefined;
    if (!repo || !issue || issue.pull) return c.text("Not Found", 404);
    const form = await c.req.parseBody();
    const user = typeof form.user === "string" ? form.user : "";
    const name = typeof form.label === "string" ? form.label.trim() : "";
    if (!store.user(user)) return c.text("unknown user", 422);
    if (!name || name.length > LABEL_MAX) return c.text(`a label of 1 to ${LABEL_MAX} characters is required`, 422);
    addIssueLabels(deps, repo, issue, [name], user);
    return c.redirect(`/${repo.owner}/${repo.name}/issues/${issue.number}`, 303);
  });
}
