import { Hono } from "hono";
import type { Context } from "hono";
import type { SandboxDeps, SandboxEnv } from "./context";
import { escapeHtml } from "./oauth.routes";
import type { IssueRecord, RepoRecord } from "./state";
import { isPull } from "./pulls.payloads";
import { reviewerPanel, webReviewerRoutes } from "./web.reviewer";
import { labelPanel, webLabelRoutes } from "./web.labels";

// The github.com pages behind html_url, when the stand-in links to itself: minimal, readable
// pages for a user, a repository, an issue and a pull request, and generated avatars, so every
// link a sandbox user clicks works offline. Public repositories only, like a signed-out visit.

function page(title: string, body: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${escapeHtml(title)}</title>
<style>body{font-family:system-ui,sans-serif;max-width:60rem;margin:2rem auto;padding:0 1rem;color:#1f2328}
.state{display:inline-block;border-radius:2em;padding:.2em .8em;color:#fff;background:#1f883d}.state.closed,.state.merged{background:#8250df}.state.draft{background:#59636e}
pre{background:#f6f8fa;padding:1rem;overflow-x:auto;white-space:pre-wrap;border-radius:6px}.note{color:#59636e}
.add{color:#1a7f37}.del{color:#cf222e}ul{padding-left:1.2rem}
ul.labels{list-style:none;padding:0;display:flex;flex-wrap:wrap;gap:.4rem}.label{border:2px solid #d0d7de;border-radius:2em;padding:.1em .6em;font-size:.9em}</style>
</head><body><p class="note">GitHub sandbox (offline stand-in)</p>${body}</body></html>`;
}

const COLORS = ["#7c3aed", "#0969da", "#1a7f37", "#bf3989", "#9a6700", "#cf222e"];

function avatarSvg(id: number, login: string): string {
  const color = COLORS[id % COLORS.length] ?? "#7c3aed";
  const letter = escapeHtml((login[0] ?? "?").toUpperCase());
  return `<svg xmlns="http://www.w3.org/2000/svg" width="120" height="120" viewBox="0 0 120 120"><rect width="120" height="120" fill="${color}"/><text x="60" y="78" font-family="system-ui,sans-serif" font-size="60" fill="#fff" text-anchor="middle">${letter}</text></svg>`;
}

const diffHtml = (diff: string): string =>
  diff
    .split("\n")
    .map((l) =>
      l.startsWith("+") && !l.startsWith("+++")
        ? `<span class="add">${escapeHtml(l)}</span>`
        : l.startsWith("-") && !l.startsWith("---")
          ? `<span class="del">${escapeHtml(l)}</span>`
          : escapeHtml(l),
    )
    .join("\n");

export function webRoutes(deps: SandboxDeps) {
  const { store, git } = deps;
  const publicRepo = (c: Context<SandboxEnv>): RepoRecord | undefined => {
    const repo = store.repo(c.req.param("owner") ?? "", c.req.param("repo") ?? "");
    return repo && !repo.private ? repo : undefined;
  };
  const notFound = (c: Context<SandboxEnv>) =>
    c.html(page("Not Found", "<h1>404</h1><p>This is not the web page you are looking for.</p>"), 404);
  const issueOf = (c: Context<SandboxEnv>, repo: RepoRecord, pull: boolean): IssueRecord | undefined => {
    const found = store.issue(repo.id, Number(c.req.param("number")));
    return found && !!found.pull === pull ? found : undefined;
  };
  const header = (repo: RepoRecord, i: IssueRecord, kind: string) => {
    const state = i.pull?.merged ? "merged" : i.pull?.draft && i.state === "open" ? "draft" : i.state;
    return `<p><a href="/${repo.owner}/${repo.name}">${escapeHtml(`${repo.owner}/${repo.name}`)}</a> · ${kind} #${i.number}</p>
<h1>${escapeHtml(i.title)} <span class="note">#${i.number}</span></h1>
<p><span class="state ${state}">${escapeHtml(state)}</span> opened by <a href="/${i.user}">${escapeHtml(i.user)}</a> on ${escapeHtml(i.createdAt.slice(0, 10))}</p>
<h2>Description</h2><pre>${escapeHtml(i.body?.trim() || "No description provided.")}</pre>`;
  };

  return new Hono<SandboxEnv>()
    .route("/", webReviewerRoutes(deps))
    .route("/", webLabelRoutes(deps))
    .get("/avatars/u/:id", (c) => {
      const id = Number(c.req.param("id"));
      const user = store.data.users.find((u) => u.id === id);
      if (!user) return notFound(c);
      return c.body(avatarSvg(id, user.login), 200, {
        "content-type": "image/svg+xml",
        "cache-control": "public, max-age=3600",
      });
    })
    .get("/:owner/:repo/issues/:number", (c) => {
      const repo = publicRepo(c);
      const issue = repo && issueOf(c, repo, false);
      if (!repo || !issue) return notFound(c);
      return c.html(
        page(
          `${issue.title} · Issue #${issue.number}`,
          `${header(repo, issue, "Issue")}${labelPanel(deps, repo, issue)}`,
        ),
      );
    })
    .get("/:owner/:repo/pull/:number", async (c) => {
      const repo = publicRepo(c);
      const pr = repo && issueOf(c, repo, true);
      if (!repo || !pr || !isPull(pr)) return notFound(c);
      const headRepo = store.repoById(pr.pull.headRepoId) ?? repo;
      const diff = await git
        .diff(git.dir(headRepo.owner, headRepo.name), pr.pull.baseSha, pr.pull.headSha)
        .catch(() => "");
      const branches = `<p class="note">${escapeHtml(`${headRepo.owner}:${pr.pull.headRef}`)} → ${escapeHtml(`${repo.owner}:${pr.pull.baseRef}`)}</p>`;
      return c.html(
        page(
          `${pr.title} · Pull Request #${pr.number}`,
          `${header(repo, pr, "Pull request")}${branches}<h2>Files changed</h2><pre>${diff ? diffHtml(diff) : "No diff available."}</pre>${reviewerPanel(deps, repo, pr, diff)}`,
        ),
      );
    })
    .get("/:owner/:repo", (c) => {
      const repo = publicRepo(c);
      if (!repo) return notFound(c);
      const items = store
        .issuesOf(repo.id)
        .map(
          (i) =>
            `<li><a href="/${repo.owner}/${repo.name}/${i.pull ? "pull" : "issues"}/${i.number}">${escapeHtml(i.title)}</a> <span class="note">#${i.number} · ${i.pull ? "pull request" : "issue"} · ${i.state}</span></li>`,
        )
        .join("");
      return c.html(
        page(
          `${repo.owner}/${repo.name}`,
          `<h1>${escapeHtml(`${repo.owner}/${repo.name}`)}</h1><p>${escapeHtml(repo.description ?? "")}</p><h2>Issues and pull requests</h2><ul>${items}</ul>`,
        ),
      );
    })
    .get("/:login", (c) => {
      const user = store.user(c.req.param("login"));
      if (!user) return notFound(c);
      const repos = store.data.repos.filter((r) => r.owner === user.login && !r.private);
      const list = repos.map((r) => `<li><a href="/${r.owner}/${r.name}">${escapeHtml(r.name)}</a></li>`).join("");
      return c.html(
        page(
          user.login,
          `<h1><img src="/avatars/u/${user.id}" alt="" width="48" height="48"> ${escapeHtml(user.login)}</h1><p>${escapeHtml(user.name)}</p><ul>${list}</ul>`,
        ),
      );
    });
}
