import { useQuery } from "@tanstack/react-query";
import { Link } from "@tanstack/react-router";
import { type ActionViews, confidenceBand, FALLBACK_CONFIDENCE } from "@fixloop/contract";
import { solutionQuery } from "../../api/validations.queries";
import { errorMessage } from "../../api/errors";
import { Button, Card, Spinner, buttonClass } from "../../ui/ui";
import { DiffViewer } from "../diff/DiffViewer";
import { SolutionSummary } from "../solution/SolutionSummary";
import { TestsNotRunNotice } from "../solution/TestsNotRunNotice";
import { SetupNetworkChoice } from "./SetupNetworkChoice";
import { ActionNotice } from "../issues/ActionNotice";

export const CONFIDENCE_TEXT = {
  green: "text-green-700 dark:text-green-400",
  yellow: "text-yellow-700 dark:text-yellow-300",
  red: "text-red-700 dark:text-red-400",
} as const;

export function SolutionResult({
  solutionId,
  onReset,
  onRun,
  modelId,
  actions,
}: {
  solutionId: string;
  /** What may be done with the issue (the run's view): a new solve it refuses is not offered, and it says why. */
  actions: ActionViews;
  /** The model the page would use for a new run. */
  modelId?: string;
  onReset: () => void;
  /** A new run started from this page (the setup network choice). */
  onRun: (runId: string) => void;
}) {
  const q = useQuery(solutionQuery(solutionId));
  if (q.isPending) return <Spinner label="Loading solution..." />;
  if (q.isError) return <p role="alert">{errorMessage(q.error, "Solution not found")}</p>;
  const s = q.data.solution;
  const confidence = s.confidence ?? FALLBACK_CONFIDENCE;
  return (
    <div className="space-y-4" data-testid="solution-result">
      <TestsNotRunNotice tests={s.metadata.tests} />
      {s.status === "pending" && s.metadata.tests?.networkWanted && actions.solve.allowed && (
        <SetupNetworkChoice issueId={s.issueId._id} modelId={modelId} onStarted={onRun} />
      )}
      <SolutionSummary
        analysis={s.analysis}
        proposedSolution={s.proposedSolution}
        analysisFooter={
          <p className="mt-3 text-sm">
            Confidence:{" "}
            <span className={`font-semibold ${CONFIDENCE_TEXT[confidenceBand(confidence)]}`}>{confidence}%</span> ·
            Model: {s.aiModel}
          </p>
        }
        files={s.filesChanged.map((f) => (
          <DiffViewer
            key={f.filename}
            filename={f.filename}
            action={f.action}
            oldContent={f.originalContent}
            newContent={f.content}
          />
        ))}
      />
      <Card>
        <h2 className="font-semibold">Next Steps</h2>
        <div className="mt-3 flex flex-wrap gap-2">
          <Link to="/validations/$solutionId" params={{ solutionId }} className={buttonClass("primary")}>
            Review &amp; Validate
          </Link>
          {actions.solve.allowed && (
            <Button variant="secondary" onClick={onReset}>
              Generate New Solution
            </Button>
          )}
        </div>
        <ActionNotice actions={actions} of={["solve"]} />
      </Card>
    </div>
  );
}
