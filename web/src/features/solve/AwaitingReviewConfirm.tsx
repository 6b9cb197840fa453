import { Link } from "@tanstack/react-router";
import { Dialog } from "../../ui/Dialog";
import { Button, buttonClass } from "../../ui/ui";

/**
 * Generate Solution on an issue whose solution still awaits review: open that one, or solve again
 * (the API refuses a second solve unless asked, 409 `solve.awaiting_review`).
 */
export function AwaitingReviewConfirm({
  solutionId,
  open,
  busy,
  onSolveAgain,
  onCancel,
}: {
  solutionId: string | null;
  open: boolean;
  busy?: boolean;
  onSolveAgain: () => void;
  onCancel: () => void;
}) {
  return (
    <Dialog open={open && !!solutionId} onClose={onCancel} title="A solution awaits review">
      <div className="space-y-3 text-sm">
        <p>A solution for this issue is still waiting for your review.</p>
        <p>
          Open it to review, edit or refine it, or solve again: the new solution counts against your plan and waits
          beside it in Pending Validations.
        </p>
      </div>
      <div className="mt-5 flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
        <Button variant="secondary" onClick={onCancel}>
          Cancel
        </Button>
        <Button variant="secondary" onClick={onSolveAgain} busy={busy}>
          Solve again
        </Button>
        {solutionId && (
          <Link to="/validations/$solutionId" params={{ solutionId }} className={buttonClass("primary")} data-autofocus>
            Open it
          </Link>
        )}
      </div>
    </Dialog>
  );
}
