import { Hono } from "hono";
import { domain, jobIds } from "@fixloop/contract";
import { githubRepositories, importedIssue } from "@fixloop/db";
import { githubForUser, toGithubError } from "@fixloop/runtime";
import type { AppEnv } from "../deps";
import { requireUser } from "../auth/auth.middleware";
import { githubUserContext } from "../auth/auth.cipher";
import { AppError } from "../http/errors";
import { validate } from "../http/validate";
import { failureError, runJob } from "../jobs/jobs.run";
import { requiresAuthorization } from "../github/github.views";
import { ImportIssueRequest, IssueRef, ParseUrlRequest } from "./contributions.schemas";
import { previewIssue } from "./contributions.preview";

const INVALID_URL =
  "Invalid URL: use a GitHub issue URL like https://github.com/owner/repo/issues/123 or owner/repo#123";

export const contributionsRoutes = new Hono<AppEnv>()
  .post("/contributions/parse-url", requireUser, validate("json", ParseUrlRequest), (c) => {
    const url = c.req.valid("json").url.trim();
    if (!url) throw new AppError(400, "contributions.url_required", "Please enter a GitHub issue URL");
    const parsed = domain.parseGithubRef(url);
    if (!parsed) throw new AppError(400, "contributions.invalid_url", INVALID_URL);
    return c.json({ parsed });
  })
  .post("/contributions/fetch-issue", requireUser, validate("json", IssueRef), async (c) => {
    const ref = c.req.valid("json");
    const deps = c.var.deps;
    const preview = await githubForUser(githubUserContext(deps), c.var.user.id)
      .then((gh) => previewIssue(gh.client, gh.login, ref))
      .catch((err: unknown) => {
        throw failureError(toGithubError(err, "Issue"));
      });
    if (preview.isPullRequest)
      throw new AppError(400, "github.not_an_issue", `#${ref.issueNumber} is a pull request, not an issue`);
    const existing = await importedIssue(deps.db, c.var.user.id, preview.repositoryId, preview.issue.number);
    return c.json({
      parsed: { type: "issue" as const, owner: ref.owner, repo: ref.repo, issueNumber: ref.issueNumber },
      repository: preview.repository,
      issue: preview.issue,
      findings: preview.findings,
      fork: preview.fork,
      blocked: preview.findings.some((f) => f.severity === "blocking"),
      needsAcknowledgement: preview.findings.some((f) => f.severity === "warning"),
      alreadyImported: Boolean(existing?.is_imported),
      existingIssueId: existing?.is_imported ? existing.id : null,
    });
  })
  .post("/contributions/import-issue", requireUser, validate("json", ImportIssueRequest), async (c) => {
    const ref = c.req.valid("json");
    const userId = c.var.user.id;
    // By the name the user gave: the repository stored under it now, if any (the fork job reads GitHub's id).
    const repositoryId = await githubRepositories.idOf(c.var.deps.db, `${ref.owner}/${ref.repo}`);
    const known = repositoryId ? await importedIssue(c.var.deps.db, userId, repositoryId, ref.issueNumber) : undefined;
    if (known?.is_imported && known.fork_full_name) {
      return c.json({
        fork: { isNew: false, fullName: known.fork_full_name },
        issue: { _id: known.id },
        alreadyImported: true,
      });
    }
    // Forking writes to the user's account: without the repository grant GitHub would only answer 404s.
    if (await requiresAuthorization(c.var.deps.db, userId)) {
      throw new AppError(
        403,
        "github.authorization_required",
        "Authorize repository access first: importing forks the repository into your account",
      );
    }
    // The fork job checks the issue and the repository's rules again: this endpoint enforces them, not only the UI.
    const data = {
      userId,
      owner: ref.owner,
      repo: ref.repo,
      issueNumber: ref.issueNumber,
      acknowledgeWarnings: ref.acknowledgeWarnings === true,
    };
    const out = await runJob(c.var.deps, "fork", data, { jobId: jobIds.fork(data) });
    if (!out.done) return c.json({ jobId: out.jobId }, 202);
    return c.json({
      fork: out.value.fork,
      issue: { _id: out.value.issueId },
      alreadyImported: out.value.alreadyImported,
    });
  });
