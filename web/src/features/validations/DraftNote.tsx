import { useQuery } from "@tanstack/react-query";
import { Link } from "@tanstack/react-router";
import { pullRequestSettingsQuery } from "../profile/PullRequestSettings";

/**
 * Before Approve: whether the pull request will open as a draft, and why. The worker opens a draft
 * when the user's setting asks for one (the default), when the solution is unverified, or when
 * the repository's contribution rules ask for one (known only once the job reads them).
 */
export function DraftNote({ unverified }: { unverified: boolean }) {
  const settings = useQuery(pullRequestSettingsQuery());
  if (!unverified && !settings.data) return null;
  const draft = unverified || settings.data?.draftPullRequests !== false;
  const setting = (
    <Link to="/profile-settings" search={{ tab: "settings" }} className="underline">
      Profile Settings → Settings
    </Link>
  );
  return (
    <p data-testid="pr-draft-note" data-draft={draft} className="mt-2 text-sm text-slate-700 dark:text-slate-300">
      {unverified ? (
        <>The pull request opens as a draft: the solution is unverified.</>
      ) : draft ? (
        <>The pull request opens as a draft, as your setting asks ({setting}); mark it ready for review on GitHub.</>
      ) : (
        <>
          The pull request opens ready for review ({setting}), or as a draft when the repository&apos;s contribution
          rules ask for one.
        </>
      )}
    </p>
  );
}
