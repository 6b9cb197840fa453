import { useMutation } from "@tanstack/react-query";
import { ShieldAlert } from "lucide-react";
import { toast } from "sonner";
import type { SolutionReproduction } from "@fixloop/contract";
import { api } from "../../api/client";
import { errorMessage, unwrap } from "../../api/errors";
import { Badge, Button, Card } from "../../ui/ui";

/** The solution is unverified: no candidate had positive evidence. Said before anything else on the page. */
export function UnverifiedNotice({ reason }: { reason: string }) {
  return (
    <div
      role="note"
      aria-label="Unverified solution"
      data-testid="unverified"
      className="flex items-start gap-2 rounded-lg border border-red-300 bg-red-50 p-3 text-sm text-red-950 dark:border-red-800 dark:bg-red-950/40 dark:text-red-100"
    >
      <ShieldAlert className="mt-0.5 size-4 shrink-0" aria-hidden />
      <span>
        <strong>Unverified.</strong> {reason} Approving opens the pull request as a draft that says so.
      </span>
    </div>
  );
}

/** The reproduction test written before the fix: kept or discarded (and why), and, when it passes, an offer to include it. */
export function ReproductionPanel({
  solutionId,
  reproduction: r,
  passes,
  included,
  pending,
  onIncluded,
}: {
  solutionId: string;
  reproduction: SolutionReproduction;
  passes: boolean;
  included: boolean;
  pending: boolean;
  onIncluded: () => void;
}) {
  const include = useMutation({
    mutationFn: () => unwrap(api.validations[":id"].reproduction.include.$post({ param: { id: solutionId } })),
    onSuccess: () => {
      toast.success("Reproduction test included in the pull request");
      onIncluded();
    },
    onError: (err) => toast.error(errorMessage(err, "Failed to include the reproduction test")),
  });
  const kept = r.status === "kept";
  return (
    <Card>
      <h2 className="flex flex-wrap items-center gap-2 font-semibold">
        Reproduction test
        <Badge tone={kept ? (passes ? "green" : "red") : "gray"}>
          {kept ? (passes ? "fixed by this solution" : "still fails") : "discarded"}
        </Badge>
      </h2>
      <p className="mt-2 text-sm break-words" data-testid="reproduction-line">
        {r.note}
      </p>
      {pending && passes && !included && (
        <Button className="mt-2" variant="secondary" onClick={() => include.mutate()} busy={include.isPending}>
          Include the reproduction test in the PR
        </Button>
      )}
      {included && <p className="mt-2 text-sm text-slate-600 dark:text-slate-400">Included: {r.filename}</p>}
    </Card>
  );
}
