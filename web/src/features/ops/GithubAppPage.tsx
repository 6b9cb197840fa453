import { useQuery } from "@tanstack/react-query";
import { Link } from "@tanstack/react-router";
import { ArrowLeft, ExternalLink } from "lucide-react";
import { ApiError } from "../../api/errors";
import { Badge, Card, EmptyState, PageHeader, Spinner, buttonClass } from "../../ui/ui";
import { GithubAppCreate } from "./GithubAppCreate";
import { githubAppStatusQuery, type GithubAppStatus } from "./github-app.queries";

const FAILURES: Record<string, string> = {
  "github_app.state_invalid":
    "GitHub's answer did not match a request from this browser session, so it was ignored and no App was stored. Start again from this page.",
  "github_app.state_reused":
    "That answer from GitHub was already used. Start again from this page to create another App.",
  "github_app.state_expired":
    "The request to GitHub took longer than 30 minutes and ran out. Start again from this page.",
  "github_app.code_invalid":
    "GitHub did not accept the code it sent back (it is good for one use, within an hour). Start again from this page.",
  "github_app.conversion_invalid": "GitHub's answer was missing the App's keys, so nothing was stored. Try again.",
  "github_app.permissions_exceeded":
    "GitHub created an App with more permissions than Fixloop asks for (the request was changed on the way), so Fixloop refused it and stored nothing. Delete that App on GitHub, then try again.",
};

interface Search {
  created?: string;
  error?: string;
  slug?: string;
  /** The organisation owning an App refused for its permissions (its settings live there). */
  org?: string;
}

function Outcome({ created, error, slug, org, web }: Search & { web: string }) {
  const settings = org ? `${web}/organizations/${encodeURIComponent(org)}/settings/apps` : `${web}/settings/apps`;
  if (created)
    return (
      <div
        role="status"
        className="mb-6 rounded-lg border border-green-300 bg-green-50 p-3 text-sm text-green-900 dark:border-green-800 dark:bg-green-950/40 dark:text-green-100"
      >
        <p>
          The GitHub App <strong>{created}</strong> was created. Its private key and secrets are stored encrypted and
          will not be shown again.
        </p>
        <p className="mt-1">
          Next, install it on the accounts or organizations whose repositories Fixloop should work on; each user can
          also install it from Repositories.
        </p>
      </div>
    );
  if (!error) return null;
  return (
    <div
      role="alert"
      className="mb-6 rounded-lg border border-red-300 bg-red-50 p-3 text-sm text-red-900 dark:border-red-800 dark:bg-red-950/40 dark:text-red-100"
    >
      <p>{FAILURES[error] ?? "The GitHub App could not be created. Try again."}</p>
      {error === "github_app.permissions_exceeded" && slug && (
        <a
          className="mt-2 inline-flex items-center gap-1 font-medium underline"
          href={`${settings}/${encodeURIComponent(slug)}/advanced`}
          target="_blank"
          rel="noreferrer"
        >
          Delete {slug} on GitHub <ExternalLink className="size-3.5" aria-hidden />
        </a>
      )}
    </div>
  );
}

const SOURCE: Record<string, string> = {
  env: "From the environment (GITHUB_APP_ID)",
  stored: "Created on this page",
};

function InUse({ s }: { s: GithubAppStatus }) {
  if (!s.inUse)
    return (
      <EmptyState title="No GitHub App yet">
        Repository access uses each user's OAuth grant. Create the App below so users choose their repositories and
        webhooks arrive without setting them up per repository.
      </EmptyState>
    );
  const stored = s.stored && s.stored.slug === s.inUse.slug ? s.stored : null;
  const rows: Array<[string, string]> = [
    ["App", `${s.inUse.slug} (id ${s.inUse.appId})`],
    ["Source", SOURCE[s.source ?? ""] ?? "—"],
    ...(stored
      ? ([
          ["Owner", stored.owner || "—"],
          [
            "Created",
            `${new Date(stored.createdAt).toLocaleString()}${stored.createdBy ? ` by ${stored.createdBy}` : ""}`,
          ],
        ] as Array<[string, string]>)
      : []),
  ];
  return (
    <Card>
      <div className="flex flex-wrap items-start justify-between gap-3">
        <dl className="grid min-w-0 grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm">
          {rows.map(([k, v]) => (
            <div key={k} className="contents">
              <dt className="text-slate-600 dark:text-slate-400">{k}</dt>
              <dd className="min-w-0 break-words">{v}</dd>
            </div>
          ))}
        </dl>
        <div className="flex flex-wrap gap-2">
          <a
            className={buttonClass("primary")}
            href={`${s.githubWebUrl}/apps/${encodeURIComponent(s.inUse.slug)}/installations/new`}
          >
            Install it <ExternalLink className="size-4" aria-hidden />
          </a>
          {stored && (
            <a className={buttonClass("ghost")} href={stored.htmlUrl} target="_blank" rel="noreferrer">
              Open on GitHub <ExternalLink className="size-4" aria-hidden />
            </a>
          )}
        </div>
      </div>
      {s.stored && s.source === "env" && (
        <p className="mt-3 text-sm text-slate-700 dark:text-slate-300">
          <Badge tone="yellow">Not in use</Badge> The App created here, {s.stored.slug}, is stored but the environment's
          App wins (GITHUB_APP_PRECEDENCE=env). Set GITHUB_APP_PRECEDENCE=stored or remove GITHUB_APP_ID to use it.
        </p>
      )}
    </Card>
  );
}

/** `/ops/github-app`: the GitHub App Fixloop uses, and creating it with GitHub's manifest flow; admins only. */
export function GithubAppPage(search: Search) {
  const q = useQuery(githubAppStatusQuery());
  if (q.isPending) return <Spinner label="Loading the GitHub App..." />;
  if (q.isError) {
    const denied = q.error instanceof ApiError && (q.error.status === 403 || q.error.status === 404);
    return (
      <div role="alert">
        <EmptyState title={denied ? "Page not found" : "Failed to load the GitHub App"}>
          <Link to="/dashboard" className={buttonClass("secondary")}>
            Back to Dashboard
          </Link>
        </EmptyState>
      </div>
    );
  }
  const s = q.data;
  return (
    <div className="max-w-3xl">
      <PageHeader title="GitHub App">
        <Link to="/ops" className={buttonClass("ghost")}>
          <ArrowLeft className="size-4" aria-hidden /> Operations
        </Link>
      </PageHeader>
      <Outcome {...search} web={s.githubWebUrl} />
      <section aria-label="In use">
        <h2 className="mb-3 text-lg font-semibold">In use</h2>
        <InUse s={s} />
      </section>
      <section aria-label="Create the GitHub App" className="mt-8">
        {s.stored ? (
          // An App exists: making another is rare, so its form stays folded.
          <details>
            <summary className="mb-3 cursor-pointer text-lg font-semibold">Create another GitHub App</summary>
            <GithubAppCreate s={s} />
          </details>
        ) : (
          <>
            <h2 className="mb-3 text-lg font-semibold">Create the GitHub App</h2>
            <GithubAppCreate s={s} />
          </>
        )}
      </section>
    </div>
  );
}
