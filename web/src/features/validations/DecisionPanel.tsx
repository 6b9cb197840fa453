import { useState } from "react";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { Link, useNavigate } from "@tanstack/react-router";
import { toast } from "sonner";
import { api } from "../../api/client";
import { ApiError, errorMessage, unwrap } from "../../api/errors";
import { AuthorizeReposLink } from "../repositories/AuthorizeReposLink";
import { Button, Card } from "../../ui/ui";
import { BaseBranchPicker } from "../branches/BaseBranchPicker";
import type { ActionViews } from "@fixloop/contract";
import { ActionNotice } from "../issues/ActionNotice";
import { DraftNote } from "./DraftNote";

export function DecisionPanel({
  solutionId,
  issueId,
  madeOn,
  unverified,
  comments,
  setComments,
  refining = false,
  actions,
}: {
  solutionId: string;
  issueId: string;
  /** Why the solution is unverified (null: it is not); the approval then opens a draft. */
  unverified: string | null;
  /** The branch the solution was read and tested at (null: recorded before branches were, the default). */
  madeOn: string | null;
  comments: string;
  setComments: (v: string) => void;
  /** A refinement of the solution is running: its result replaces the files, so the decision waits. */
  refining?: boolean;
  /** What the issue's standing allows: a refused approval is not offered (a rejection is always taken). */
  actions: ActionViews;
}) {
  const approvable = actions.approve.allowed;
  const qc = useQueryClient();
  const navigate = useNavigate();
  const [branch, setBranch] = useState(madeOn ?? "");
  const otherBranch = !!madeOn && !!branch && branch !== madeOn ? branch : null;
  const decide = useMutation({
    mutationFn: (status: "approved" | "rejected") =>
      unwrap(
        api.validations[":id"].validate.$post({
          param: { id: solutionId },
          json: { status, comments: comments.trim() || undefined, ...(branch ? { baseBranch: branch } : {}) },
        }),
      ),
    onSuccess: (body) => {
      void qc.invalidateQueries({ queryKey: ["validations"] });
      void qc.invalidateQueries({ queryKey: ["prs"] });
      void qc.invalidateQueries({ queryKey: ["issues"] });
      if (body.status === "rejected") {
        toast.success("Solution rejected");
        void navigate({ to: "/validations" });
        return;
      }
      if ("githubUrl" in body && body.githubUrl) {
        toast.success("PR Created Successfully!", {
          duration: 10_000,
          description: (
            <a href={body.githubUrl} target="_blank" rel="noreferrer" className="underline">
              {body.githubUrl}
            </a>
          ),
        });
      } else toast.success("Solution validated successfully!");
      setTimeout(() => void navigate({ to: "/pull-requests" }), 2000);
    },
    onError: (err) => toast.error(errorMessage(err, "Validation failed")),
  });
  const regrant =
    decide.error instanceof ApiError && decide.error.code === "github.reauthorize_required"
      ? decide.error.message
      : null;
  return (
    <Card>
      <h2 className="font-semibold">Validation Decision</h2>
      {!approvable ? (
        <ActionNotice actions={actions} of={["approve"]} />
      ) : (
        <div className="mt-2">
          <BaseBranchPicker
            id="approve-base-branch"
            issueId={issueId}
            value={branch}
            onChange={setBranch}
            disabled={decide.isPending || decide.isSuccess}
          />
        </div>
      )}
      {otherBranch && madeOn && (
        <div
          role="alert"
          className="mt-3 rounded-lg border border-amber-300 bg-amber-50 p-3 text-sm dark:border-amber-800 dark:bg-amber-950/40"
        >
          <p>
            This solution was made and tested against <strong>{madeOn}</strong>. A pull request against{" "}
            <strong>{otherBranch}</strong> needs a solution made there: its code and tests may differ.
          </p>
          <Link
            to="/issues/$issueId/solve"
            params={{ issueId }}
            search={{ branch: otherBranch }}
            className="mt-2 inline-block font-medium underline"
          >
            Solve again on {otherBranch}
          </Link>
        </div>
      )}
      <label htmlFor="decision-comments" className="mt-2 block text-sm">
        Comments
      </label>
      <textarea
        id="decision-comments"
        value={comments}
        onChange={(e) => setComments(e.target.value)}
        rows={3}
        className="mt-1 w-full rounded-lg border border-slate-300 bg-white p-2 text-sm dark:border-slate-600 dark:bg-slate-900"
      />
      {refining && (
        <p role="status" className="mt-2 text-sm text-slate-700 dark:text-slate-300">
          A refinement is running. Approve or reject once its result is here, or cancel it.
        </p>
      )}
      {approvable && <DraftNote unverified={!!unverified} />}
      <div className="mt-2 flex flex-wrap gap-2">
        {approvable && (
          <Button
            onClick={() => decide.mutate("approved")}
            busy={decide.isPending && decide.variables === "approved"}
            disabled={decide.isPending || decide.isSuccess || !!otherBranch || refining}
            title={unverified ?? undefined}
          >
            {unverified ? <>Approve unverified &amp; Create draft PR</> : <>Approve &amp; Create PR</>}
          </Button>
        )}
        <Button
          variant="danger"
          onClick={() => decide.mutate("rejected")}
          busy={decide.isPending && decide.variables === "rejected"}
          disabled={decide.isPending || decide.isSuccess || refining}
        >
          Reject
        </Button>
      </div>
      {regrant && (
        <div
          role="alert"
          className="mt-3 rounded-lg border border-violet-300 bg-violet-50 p-3 text-sm dark:border-violet-800 dark:bg-violet-950/40"
        >
          <p>{regrant}</p>
          <AuthorizeReposLink className="mt-2" />
        </div>
      )}
    </Card>
  );
}
