import { queryOptions, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { toast } from "sonner";
import { api } from "../../api/client";
import { errorMessage, unwrap } from "../../api/errors";
import { Card } from "../../ui/ui";

export const pullRequestSettingsQuery = () =>
  queryOptions({
    queryKey: ["settings", "pull-requests"],
    queryFn: () => unwrap(api.settings["pull-requests"].$get()),
  });

/** Whether upstream pull requests open as drafts (on by default). */
export function PullRequestSettings() {
  const qc = useQueryClient();
  const settings = useQuery(pullRequestSettingsQuery());
  const save = useMutation({
    mutationFn: (draftPullRequests: boolean) =>
      unwrap(api.settings["pull-requests"].$put({ json: { draftPullRequests } })),
    onSuccess: (body) => qc.setQueryData(pullRequestSettingsQuery().queryKey, body),
    onError: (err) => toast.error(errorMessage(err, "Failed to save the setting")),
  });
  return (
    <Card>
      <h2 className="font-semibold">Pull requests</h2>
      <label className="mt-2 flex items-center gap-2 text-sm">
        <input
          type="checkbox"
          checked={settings.data?.draftPullRequests ?? true}
          disabled={!settings.data || save.isPending}
          onChange={(e) => save.mutate(e.target.checked)}
        />
        Open pull requests as drafts
      </label>
      <p className="mt-1 text-xs text-slate-600 dark:text-slate-400">
        Repositories whose contribution rules ask for drafts always get one.
      </p>
    </Card>
  );
}
