import { useState } from "react";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { GitCommit } from "lucide-react";
import { toast } from "sonner";
import { api } from "../../api/client";
import { errorMessage, unwrap } from "../../api/errors";
import { Button, Card } from "../../ui/ui";
import type { ActionViews } from "@fixloop/contract";
import { ActionNotice } from "../issues/ActionNotice";

/**
 * A revision made by addressing the pull request's review, not on its branch yet: the user's
 * approval pushes it as one new commit on the same branch (never forced) and replies on the
 * addressed threads. A refusal (the branch moved under it) is shown with its reason. A push the
 * issue's standing refuses (its repository left the user's list) is not offered: it says why instead.
 */
export function PushRevisionPanel(p: {
  pullRequestId: string;
  number: number;
  revision: number;
  pushed: number;
  actions: ActionViews;
}) {
  const allowed = p.actions.push.allowed;
  const qc = useQueryClient();
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const push = useMutation({
    mutationFn: () => unwrap(api.prs[":id"].push.$post({ param: { id: p.pullRequestId } })),
    onMutate: () => setError(null),
    onSuccess: (body) => {
      if (body.status === "queued") {
        setDone("The push is queued; the pull request updates in a moment");
        return;
      }
      const short = (body.commitSha ?? "").slice(0, 7);
      setDone(`Pushed ${short} to pull request #${p.number}; replied on ${body.replies} review thread(s)`);
      toast.success(`Revision ${body.revision} pushed to #${p.number}`);
      // The solution's page is left as is so this note stays; the pull request pages read it again.
      void qc.invalidateQueries({ queryKey: ["prs"] });
    },
    onError: (err) => setError(errorMessage(err, "The revision could not be pushed")),
  });
  return (
    <Card className="border-violet-300 dark:border-violet-800">
      <h2 className="font-semibold">Push to pull request #{p.number}</h2>
      <p className="mt-1 text-sm text-slate-700 dark:text-slate-300">
        Revision {p.revision} addresses the review (the branch has revision {p.pushed}).
        {allowed &&
          " Approving it adds one new commit on the same branch, never a force-push, and replies on each addressed review thread."}
      </p>
      {!allowed ? (
        <ActionNotice actions={p.actions} of={["push"]} />
      ) : done ? (
        <p role="status" className="mt-2 flex items-center gap-1 text-sm text-green-700 dark:text-green-400">
          <GitCommit className="size-4" aria-hidden /> {done}
        </p>
      ) : (
        <Button className="mt-2" onClick={() => push.mutate()} busy={push.isPending}>
          Approve and push revision {p.revision}
        </Button>
      )}
      {error && (
        <p role="alert" className="mt-2 text-sm text-red-700 dark:text-red-400">
          {error}
        </p>
      )}
    </Card>
  );
}
