import { useState } from "react";
import { useMutation } from "@tanstack/react-query";
import { Globe } from "lucide-react";
import { toast } from "sonner";
import { api } from "../../api/client";
import { errorMessage, unwrap } from "../../api/errors";
import { Button, Card } from "../../ui/ui";

/**
 * "This repository's setup wants network: allow once / always / never" for a repository the user
 * does not own. Once and always start a new run (once: that run only; always: stored in the
 * repository's test settings); never, the default, keeps setup offline and starts nothing.
 */
export function SetupNetworkChoice({
  issueId,
  modelId,
  onStarted,
}: {
  issueId: string;
  modelId?: string;
  onStarted: (runId: string) => void;
}) {
  const [never, setNever] = useState(false);
  const start = useMutation({
    mutationFn: (setupNetwork: "once" | "always") =>
      unwrap(
        api.ai["generate-solution"].$post({
          query: {},
          // A re-run of the same issue, asked for by this choice: the solution it replaces may await review.
          json: { issueId, ...(modelId ? { modelId } : {}), setupNetwork, solveAgain: true },
        }),
      ),
    onSuccess: ({ runId }) => onStarted(runId),
    onError: (err) => toast.error(errorMessage(err, "Failed to start the run")),
  });
  return (
    <div data-testid="setup-network-choice">
      <Card>
        <h2 className="flex items-center gap-2 font-semibold">
          <Globe className="size-4 shrink-0" aria-hidden /> This repository&apos;s setup wants network
        </h2>
        <p className="mt-2 text-sm text-slate-600 dark:text-slate-400">
          Its <code>.fixloop.yml</code> asks for network during setup. You do not own this repository, so setup ran
          offline. With network, setup reaches only the allowed package registries through Fixloop&apos;s proxy; the
          tests never get network.
        </p>
        {never ? (
          <p className="mt-3 text-sm" role="status">
            Never: setup stays offline for this repository.
          </p>
        ) : (
          <div className="mt-3 flex flex-wrap gap-2">
            <Button onClick={() => start.mutate("once")} busy={start.isPending && start.variables === "once"}>
              Allow once
            </Button>
            <Button
              variant="secondary"
              onClick={() => start.mutate("always")}
              busy={start.isPending && start.variables === "always"}
            >
              Always
            </Button>
            <Button variant="secondary" onClick={() => setNever(true)} disabled={start.isPending}>
              Never
            </Button>
          </div>
        )}
        <p className="mt-2 text-xs text-slate-500">
          Allow once re-runs the solution with network for this run&apos;s setup only; Always stores it in the
          repository&apos;s test settings.
        </p>
      </Card>
    </div>
  );
}
