import { Hono } from "hono";
import type { Context } from "hono";
import type { SandboxDeps, SandboxEnv } from "./context";
import { escapeHtml } from "./oauth.routes";
import { isPull, type PullIssue } from "./pulls.payloads";
import { reviewsService } from "./reviews.service";
import type { RepoRecord } from "./state";

// What a reviewer does on github.com, offline: the sandbox PR page lets whoever walks the sandbox
// leave a review comment as any seeded user and report a check result on the head commit. Both go
// through the same records and signed webhooks as the REST API, so Fixloop sees them as from GitHub.

const TEXT_MAX = 10_000;
/** A job log pasted on the page: real ones run to megabytes, the form takes a sizeable one. */
const LOG_MAX = 1_000_000;
const CONCLUSIONS = ["failure", "success", "neutral", "cancelled", "timed_out", "action_required"];

const changedFiles = (diff: string) => [...diff.matchAll(/^diff --git a\/.+ b\/(.+)$/gm)].map((m) => m[1] ?? "");

/** The reviewer forms and what reviewers have said so far, for the PR page. */
export function reviewerPanel(deps: SandboxDeps, repo: RepoRecord, pr: PullIssue, diff: string): string {
  const { store } = deps;
  const base = `/${repo.owner}/${repo.name}/pull/${pr.number}/sandbox`;
  const opt = (v: string, label = v) => `<option value="${escapeHtml(v)}">${escapeHtml(label)}</option>`;
  // Someone other than the author and the owner first: the usual reviewer.
  const rank = (login: string) => (login === pr.user ? 2 : login === repo.owner ? 1 : 0);
  const users = store.data.users.map((u) => u.login).sort((a, b) => rank(a) - rank(b));
  const comments = (store.data.reviewComments ?? [])
    .filter((x) => x.repoId === repo.id && x.number === pr.number)
    .map(
      (x) =>
        `<li><b>${escapeHtml(x.user)}</b> on <code>${escapeHtml(`${x.path}:${x.line}`)}</code>${x.inReplyTo ? " (reply)" : ""}<pre>${escapeHtml(x.body)}</pre></li>`,
    )
    .join("");
  const checks = (store.data.checkRuns ?? [])
    .filter((x) => x.repoId === repo.id && x.headSha === pr.pull.headSha)
    .map(
      (x) =>
        `<li>${escapeHtml(x.name)}${x.actions ? " (GitHub Actions)" : ""}: <b>${escapeHtml(x.conclusion)}</b> ${escapeHtml(x.summary ?? "")}</li>`,
    )
    .join("");
  return `<h2>Review comments</h2>${comments ? `<ul>${comments}</ul>` : `<p class="note">No review comments yet.</p>`}
<h2>Checks on the head commit</h2>${checks ? `<ul>${checks}</ul>` : `<p class="note">No checks reported.</p>`}
<h2>Act as a reviewer (sandbox)</h2>
<form method="post" action="${base}/review-comment" aria-label="Leave a review comment">
<p><label>As <select name="user">${users.map((u) => opt(u)).join("")}</select></label>
<label>File <select name="path">${changedFiles(diff)
    .map((f) => opt(f))
    .join("")}</select></label>
<label>Line <input name="line" type="number" min="1" value="1" required></label></p>
<p><label>Comment<br><textarea name="body" rows="3" style="width:100%" required maxlength="${TEXT_MAX}"></textarea></label></p>
<p><button type="submit">Add review comment</button></p></form>
<form method="post" action="${base}/check-run" aria-label="Report a check result">
<p><label>Check <input name="name" value="ci" required maxlength="100"></label>
<label>Result <select name="conclusion">${CONCLUSIONS.map((x) => opt(x)).join("")}</select></label></p>
<p><label>Reported by <select name="app">${opt("sandbox-ci", "Sandbox CI (check output)")}${opt("github-actions", "GitHub Actions (a job with a log)")}</select></label></p>
<p><label>Log excerpt<br><textarea name="summary" rows="3" style="width:100%" maxlength="${TEXT_MAX}"></textarea></label></p>
<p><label>Job log (GitHub Actions only: served by the jobs API)<br><textarea name="log" rows="3" style="width:100%" maxlength="${LOG_MAX}"></textarea></label></p>
<p><button type="submit">Report check</button></p></form>`;
}

/** The POST targets of the reviewer forms; each answers with a redirect back to the PR page. */
export function webReviewerRoutes(deps: SandboxDeps) {
  const { store } = deps;
  const service = reviewsService(deps);
  const target = (c: Context<SandboxEnv>) => {
    const repo = store.repo(c.req.param("owner") ?? "", c.req.param("repo") ?? "");
    const pr = repo && !repo.private ? store.issue(repo.id, Number(c.req.param("number"))) : undefined;
    return repo && pr && isPull(pr) ? { repo, pr } : undefined;
  };
  const field = (form: Record<string, unknown>, k: string) => {
    const v = form[k];
    return typeof v === "string" ? v.trim().slice(0, TEXT_MAX) : "";
  };
  const bad = (c: Context<SandboxEnv>, message: string) => c.text(message, 422);
  const back = (c: Context<SandboxEnv>, t: { repo: RepoRecord; pr: PullIssue }) =>
    c.redirect(`/${t.repo.owner}/${t.repo.name}/pull/${t.pr.number}`, 303);

  return new Hono<SandboxEnv>()
    .post("/:owner/:repo/pull/:number/sandbox/review-comment", async (c) => {
      const t = target(c);
      if (!t) return c.text("Not Found", 404);
      const form = await c.req.parseBody();
      const user = field(form, "user");
      const line = Number(field(form, "line"));
      const body = field(form, "body");
      const path = field(form, "path");
      if (!store.user(user)) return bad(c, "unknown user");
      if (!body || !path || !Number.isInteger(line) || line < 1)
        return bad(c, "a file, a line and a comment are required");
      service.addReviewComment(t.repo, t.pr, { body, path, line, side: "RIGHT" }, user);
      return back(c, t);
    })
    .post("/:owner/:repo/pull/:number/sandbox/check-run", async (c) => {
      const t = target(c);
      if (!t) return c.text("Not Found", 404);
      const form = await c.req.parseBody();
      const name = field(form, "name").slice(0, 100);
      const conclusion = field(form, "conclusion");
      if (!name || !CONCLUSIONS.includes(conclusion)) return bad(c, "a check name and a known result are required");
      const summary = field(form, "summary");
      const log = typeof form.log === "string" ? form.log.slice(0, LOG_MAX) : "";
      const actions = form.app === "github-actions" ? { actions: { log } } : {};
      service.addCheckRun(
        t.repo,
        { name, headSha: t.pr.pull.headSha, conclusion, title: name, ...(summary ? { summary } : {}), ...actions },
        t.repo.owner,
      );
      return back(c, t);
    });
}
