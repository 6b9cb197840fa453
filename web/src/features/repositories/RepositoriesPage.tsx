import { useEffect, useRef, useState } from "react";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { Link, useNavigate } from "@tanstack/react-router";
import { Download, Eye, ExternalLink, GitFork, Lock, RefreshCw } from "lucide-react";
import { toast } from "sonner";
import { api } from "../../api/client";
import { ApiError, errorMessage, unwrap } from "../../api/errors";
import { repositoriesQuery } from "../../api/repositories.queries";
import { issuesQuery } from "../../api/issues.queries";
import { GithubAppCard } from "./GithubAppCard";
import { githubAppQuery } from "../../api/github-app.queries";
import { LabelTrigger } from "./LabelTriggerForm";
import { TestSettings } from "./TestSettingsForm";
import { TrustCard } from "./TrustCard";
import { issuesPageUrl } from "../contribute/prefill";
type Repository = NonNullable<
  Awaited<ReturnType<ReturnType<typeof repositoriesQuery>["queryFn"] & {}>>
>["repositories"][number];
import { Badge, Button, Card, EmptyState, PageHeader, Spinner, buttonClass } from "../../ui/ui";
import { failureToast } from "../../ui/failure-toast";

const READ_ONLY_HINT =
  "You can read this repository but not push to it: import its issues by URL to solve them in a fork.";

export function RepositoriesPage({
  authorized,
  installed,
  error,
}: {
  authorized?: boolean;
  /** Back from GitHub's installation page: adopted, or waiting for GitHub's webhook to name the installer. */
  installed?: "true" | "pending";
  error?: string;
}) {
  const qc = useQueryClient();
  const navigate = useNavigate();
  const repos = useQuery(repositoriesQuery());
  const handled = useRef(false);
  // Kept for this visit after the URL's flag is cleared: the one-time prompt waits for the next one.
  const [justAuthorized] = useState(authorized === true);

  useEffect(() => {
    if (handled.current || (!authorized && !error && !installed)) return;
    handled.current = true;
    if (installed) {
      if (installed === "true") toast.success("Fixloop's GitHub App is installed");
      else toast.info("GitHub has not confirmed the installation yet; its repositories appear here once it does.");
      void qc.invalidateQueries({ queryKey: githubAppQuery().queryKey });
      void qc.invalidateQueries({ queryKey: repositoriesQuery().queryKey });
    } else if (authorized) {
      toast.success("Repository access authorized successfully!");
      void qc.invalidateQueries({ queryKey: repositoriesQuery().queryKey });
    } else toast.error("Failed to authorize repository access");
    void navigate({ to: "/repositories", search: {}, replace: true });
  }, [authorized, installed, error, qc, navigate]);

  return (
    <>
      <PageHeader title="Repositories">
        <Button variant="secondary" onClick={() => void repos.refetch()} busy={repos.isFetching}>
          <RefreshCw className="size-4" aria-hidden /> Refresh
        </Button>
      </PageHeader>
      {repos.data && (
        <GithubAppCard requiresAuthorization={repos.data.requiresAuthorization} justAuthorized={justAuthorized} />
      )}
      {repos.isPending && <Spinner label="Loading repositories..." />}
      {repos.isError && <EmptyState title="Failed to load repositories">{errorMessage(repos.error, "")}</EmptyState>}
      {repos.data && repos.data.repositories.length === 0 && <EmptyState title="No repositories found" />}
      {/* minmax(0, 1fr) columns: a long repository name truncates instead of widening the page. */}
      <ul className="grid grid-cols-1 gap-3 md:grid-cols-2">
        {repos.data?.repositories.map((r) => (
          <li key={r._id}>
            <RepositoryCard repo={r} />
          </li>
        ))}
      </ul>
    </>
  );
}

function RepositoryCard({ repo }: { repo: Repository }) {
  const qc = useQueryClient();
  const [owner = "", name = ""] = repo.fullName.split("/");
  const param = { owner, repo: name };
  const refused = (title: string) => (err: unknown) => {
    failureToast(title, err);
    // Push access taken away since the list was read: reading it again shows the repository as read-only.
    if (err instanceof ApiError && err.code === "github.not_your_repository")
      void qc.invalidateQueries({ queryKey: repositoriesQuery().queryKey });
  };
  const sync = useMutation({
    mutationFn: () => unwrap(api.github.repositories[":owner"][":repo"].sync.$post({ param })),
    onSuccess: () => {
      toast.success("Repository synced successfully");
      void qc.invalidateQueries({ queryKey: repositoriesQuery().queryKey });
    },
    onError: refused("Failed to sync repository"),
  });
  const fetchIssues = useMutation({
    mutationFn: () => unwrap(api.github.repositories[":owner"][":repo"].issues.$get({ param })),
    onSuccess: (body) => {
      if ("count" in body) toast.success(`Fetched ${body.count} issues`);
      else toast.info("Fetching issues in the background; they will appear in Issues shortly.");
      void qc.invalidateQueries({ queryKey: issuesQuery().queryKey });
    },
    onError: refused("Failed to fetch issues"),
  });
  return (
    <Card className="h-full">
      <div className="flex items-start justify-between gap-2">
        <div className="min-w-0">
          <h2 className="truncate font-semibold">{repo.name}</h2>
          <p className="truncate text-sm text-slate-600 dark:text-slate-400">{repo.fullName}</p>
        </div>
        <div className="flex max-w-[55%] shrink-0 flex-wrap justify-end gap-1">
          {!repo.canPush && (
            <Badge tone="yellow" title={READ_ONLY_HINT}>
              <Eye className="mr-1 size-3" aria-hidden /> Read-only
            </Badge>
          )}
          {repo.isPrivate && (
            <Badge tone="gray">
              <Lock className="mr-1 size-3" aria-hidden /> Private
            </Badge>
          )}
          {repo.language && <Badge tone="blue">{repo.language}</Badge>}
        </div>
      </div>
      {repo.description && <p className="mt-2 text-sm text-slate-700 dark:text-slate-300">{repo.description}</p>}
      {!repo.canPush && <p className="mt-2 text-sm text-slate-600 dark:text-slate-400">{READ_ONLY_HINT}</p>}
      <div className="mt-3 flex flex-wrap gap-2">
        {repo.canPush ? (
          <>
            <Button
              variant="secondary"
              onClick={() => sync.mutate()}
              busy={sync.isPending}
              aria-label={`Sync ${repo.fullName}`}
            >
              <RefreshCw className="size-4" aria-hidden /> Sync
            </Button>
            <Button
              onClick={() => fetchIssues.mutate()}
              busy={fetchIssues.isPending}
              aria-label={`Fetch issues of ${repo.fullName}`}
            >
              <Download className="size-4" aria-hidden /> Fetch Issues
            </Button>
          </>
        ) : (
          // Fetching or syncing its issues is refused (403): its issues are imported one by one, into a fork;
          // the import page opens on this repository's issues, waiting for the number.
          <Link
            to="/contribute"
            search={{ url: issuesPageUrl(repo.fullName) }}
            className={buttonClass("secondary")}
            aria-label={`Import issue by URL for ${repo.fullName}`}
          >
            <GitFork className="size-4" aria-hidden /> Import issue by URL
          </Link>
        )}
        <a
          href={repo.htmlUrl}
          target="_blank"
          rel="noreferrer"
          className={buttonClass("ghost")}
          aria-label={`Open ${repo.fullName} on GitHub`}
        >
          <ExternalLink className="size-4" aria-hidden /> GitHub
        </a>
      </div>
      <TrustCard owner={owner} repo={name} />
      <TestSettings owner={owner} repo={name} readOnly={!repo.canPush} />
      {repo.canPush && <LabelTrigger owner={owner} repo={name} />}
    </Card>
  );
}
