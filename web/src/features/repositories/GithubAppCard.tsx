import { useEffect, useRef, useState } from "react";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { ExternalLink, Settings, ShieldCheck } from "lucide-react";
import { api } from "../../api/client";
import { unwrap } from "../../api/errors";
import { githubAppQuery } from "../../api/github-app.queries";
import { repositoriesQuery } from "../../api/repositories.queries";
import { Badge, Button, Card, buttonClass } from "../../ui/ui";
import { AuthorizeReposLink } from "./AuthorizeReposLink";

type GithubApp = NonNullable<Awaited<ReturnType<ReturnType<typeof githubAppQuery>["queryFn"] & {}>>>;
type Installation = GithubApp["installations"][number];

const LEAST_PRIVILEGE =
  "Each job then gets a one-hour token for one repository, and branches, pull requests and comments are written by the app's bot, naming you as the reviewer who approved them.";

/**
 * Repository access on the Repositories page: installing Fixloop's GitHub App (the primary action),
 * the installations and their state, and the OAuth grant as the fallback. An OAuth-grant user who
 * has not installed the App is asked once to move to it; the answer is remembered by the server.
 */
export function GithubAppCard({
  requiresAuthorization,
  justAuthorized = false,
}: {
  requiresAuthorization: boolean;
  /** Back from granting OAuth access this very moment: the prompt waits for the next visit. */
  justAuthorized?: boolean;
}) {
  const qc = useQueryClient();
  const app = useQuery(githubAppQuery());
  const [includePrivate, setIncludePrivate] = useState(false);
  const answer = useMutation({
    mutationFn: () => unwrap(api.github.app.prompt.$post()),
    onSuccess: () => void qc.invalidateQueries({ queryKey: githubAppQuery().queryKey }),
  });
  useFollowInstallations(app.data);

  const oauth = requiresAuthorization && (
    <div className="mt-4 border-t border-slate-200 pt-3 dark:border-slate-800">
      <p className="text-sm text-slate-700 dark:text-slate-300">
        Or grant access through your GitHub sign-in instead: every repository you can push to, with no choice. Importing
        a public issue of someone else&apos;s repository needs it (Fixloop forks it into your account, which an app
        cannot do).
      </p>
      <label className="mt-2 flex items-center gap-2 text-sm">
        <input type="checkbox" checked={includePrivate} onChange={(e) => setIncludePrivate(e.target.checked)} />
        Include private repositories
      </label>
      <AuthorizeReposLink includePrivate={includePrivate} variant="secondary" className="mt-2" />
    </div>
  );

  if (!app.data?.configured) {
    if (!requiresAuthorization || app.isPending) return null;
    return (
      <Card className="mb-6 border-violet-300 dark:border-violet-800">
        <h2 className="font-semibold">Authorize repository access</h2>
        <p className="mt-1 text-sm text-slate-700 dark:text-slate-300">
          Fixloop needs read and write access to create branches and pull requests.
        </p>
        <label className="mt-3 flex items-center gap-2 text-sm">
          <input type="checkbox" checked={includePrivate} onChange={(e) => setIncludePrivate(e.target.checked)} />
          Include private repositories
        </label>
        <AuthorizeReposLink includePrivate={includePrivate} className="mt-3" />
      </Card>
    );
  }
  const { installUrl, installations, suggestInstall } = app.data;
  const installLink = installUrl && (
    <a
      href={installUrl}
      className={buttonClass("primary")}
      onClick={(e) => {
        // Going to install answers the prompt: recorded before the page is left, so it is not cut off.
        if (!suggestInstall || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
        e.preventDefault();
        void answer
          .mutateAsync()
          .catch(() => null)
          .finally(() => window.location.assign(installUrl));
      }}
    >
      <ShieldCheck className="size-4" aria-hidden /> Install the GitHub App
    </a>
  );

  if (installations.length > 0)
    return (
      <Card className="mb-6">
        <div className="flex flex-wrap items-center justify-between gap-2">
          <h2 className="font-semibold">GitHub App</h2>
          {installUrl && (
            <a href={installUrl} className="text-sm font-medium text-violet-700 hover:underline dark:text-violet-300">
              Install on another account
            </a>
          )}
        </div>
        <ul className="mt-2 divide-y divide-slate-200 dark:divide-slate-800" aria-label="Installations">
          {installations.map((i) => (
            <InstallationRow key={i.id} installation={i} />
          ))}
        </ul>
      </Card>
    );

  if (suggestInstall && !justAuthorized)
    return (
      <Card className="mb-6 border-violet-300 dark:border-violet-800">
        <section aria-labelledby="app-prompt-title">
          <h2 id="app-prompt-title" className="font-semibold">
            Choose the repositories Fixloop may change
          </h2>
          <p className="mt-1 text-sm text-slate-700 dark:text-slate-300">
            Fixloop can now write to every repository you can push to. Install its GitHub App to choose all or only
            selected repositories. {LEAST_PRIVILEGE} Your current access keeps working until then.
          </p>
          <div className="mt-3 flex flex-wrap gap-2">
            {installLink}
            <Button variant="secondary" onClick={() => answer.mutate()} busy={answer.isPending}>
              Not now
            </Button>
          </div>
        </section>
      </Card>
    );

  if (!requiresAuthorization)
    // An OAuth-grant user who answered "Not now": the way to the App stays, without a prompt.
    return (
      <p className="mb-6 flex flex-wrap items-center gap-x-3 gap-y-2 text-sm text-slate-700 dark:text-slate-300">
        Fixloop works through your GitHub sign-in&apos;s access to every repository you can push to.
        {installUrl && (
          <a href={installUrl} className="font-medium text-violet-700 hover:underline dark:text-violet-300">
            Install the GitHub App to choose repositories
          </a>
        )}
      </p>
    );

  return (
    <Card className="mb-6 border-violet-300 dark:border-violet-800">
      <h2 className="font-semibold">Install the GitHub App</h2>
      <p className="mt-1 text-sm text-slate-700 dark:text-slate-300">
        Choose the account (yours or an organisation) and all or only selected repositories on GitHub. {LEAST_PRIVILEGE}
      </p>
      <div className="mt-3">{installLink}</div>
      {oauth}
    </Card>
  );
}

function InstallationRow({ installation: i }: { installation: Installation }) {
  const kind = i.accountType === "Organization" ? "organisation" : "personal account";
  const scope =
    i.repositorySelection === "all"
      ? "all repositories"
      : `${i.repositoryCount} selected ${i.repositoryCount === 1 ? "repository" : "repositories"}`;
  return (
    <li className="flex flex-wrap items-start justify-between gap-2 py-2">
      <div className="min-w-0">
        <p className="flex flex-wrap items-center gap-2">
          <span className="font-medium">{i.account}</span>
          <span className="text-sm text-slate-600 dark:text-slate-400">
            {kind} · {scope}
          </span>
          {i.suspended ? <Badge tone="red">Suspended</Badge> : <Badge tone="green">Active</Badge>}
        </p>
        {i.suspended && (
          <p className="mt-1 text-sm text-red-800 dark:text-red-200" role="status">
            This installation is suspended on GitHub, so Fixloop cannot solve issues or open pull requests in{" "}
            {i.account}&apos;s repositories. An owner of {i.account} can unsuspend it from Configure.
          </p>
        )}
      </div>
      <a
        href={i.configureUrl}
        className={buttonClass("secondary")}
        aria-label={`Configure the installation on ${i.account}`}
      >
        <Settings className="size-4" aria-hidden /> Configure
        <ExternalLink className="size-3" aria-hidden />
      </a>
    </li>
  );
}

/** When an installation changes on GitHub (its webhooks update the server), the repository list is read again. */
function useFollowInstallations(app: GithubApp | undefined) {
  const qc = useQueryClient();
  const key = app
    ? JSON.stringify(app.installations.map((i) => [i.id, i.updatedAt, i.repositoryCount, i.suspended]))
    : null;
  const last = useRef<string | null>(null);
  useEffect(() => {
    if (key === null) return;
    if (last.current !== null && last.current !== key)
      void qc.invalidateQueries({ queryKey: repositoriesQuery().queryKey });
    last.current = key;
  }, [key, qc]);
}
