import { useState } from "react";
import { useQuery } from "@tanstack/react-query";
import { AlertTriangle } from "lucide-react";
import { confidenceBand, RISK_DISPLAY_SCORE } from "@fixloop/contract";
import { solutionQuery } from "../../api/validations.queries";
import { Badge, Card, Spinner, type Tone } from "../../ui/ui";
import { LoadFailure } from "../../ui/NotFound";
import { CONFIDENCE_TEXT } from "../solve/SolutionResult";
import { DecidedPanel } from "./DecidedPanel";
import { DecisionPanel } from "./DecisionPanel";
import { EditableFile } from "./EditableFile";
import { SolutionSummary } from "../solution/SolutionSummary";
import { TestsNotRunNotice } from "../solution/TestsNotRunNotice";
import { ModelSawPanel } from "./ModelSawPanel";
import { AgentTrajectoryPanel } from "../agent/AgentTrajectoryPanel";
import { RefinePanel } from "./RefinePanel";
import { TestsPanel } from "./TestsPanel";
import { DiffLayoutToggle } from "../diff/DiffLayoutToggle";
import { RefinementSummary, refinedChange } from "./RefinementSummary";
import { InlineMarkdown } from "../../ui/Markdown";
import { CandidatesPanel } from "../candidates/CandidatesPanel";
import { PushRevisionPanel } from "./PushRevisionPanel";
import { ReproductionPanel, UnverifiedNotice } from "../reproduction/ReproductionPanel";

const RISK_TONE: Record<string, Tone> = { low: "green", medium: "yellow", high: "orange", critical: "red" };
const complexity = (c: string | undefined) => (c === "simple" || c === "complex" ? c : "medium");

export function ValidatePage({ solutionId }: { solutionId: string }) {
  const q = useQuery(solutionQuery(solutionId));
  const [comments, setComments] = useState("");
  if (q.isPending) return <Spinner label="Loading solution..." />;
  if (q.isError)
    return (
      <LoadFailure
        error={q.error}
        notFound="Solution not found"
        failed="Failed to load solution"
        to="/validations"
        label="Back to Validations"
      />
    );
  const s = q.data.solution;
  const previous = q.data.previousVersion;
  const m = s.metadata;
  const v = m.validation;
  // Errors first (e.g. a hand edit that does not parse); the two warning lists repeat each other.
  const warnings = [
    ...new Set(
      [...m.advancedValidation.errors, ...m.advancedValidation.warnings].map((w) => w.message).concat(v.warnings),
    ),
  ].slice(0, 3);
  const stats = v.stats;
  const pr = q.data.pullRequest;
  // A refinement running would replace any change of the files, and a decision must wait for its result.
  const refining = q.data.refiningRunId;
  const changeable = s.status === "pending" && !refining;
  // A revision made by addressing the open pull request's review, not yet on its branch.
  const unpushed =
    s.status === "pr_created" && pr?.status === "open" && pr.pushedRevision !== null && s.revision > pr.pushedRevision
      ? { pr, pushed: pr.pushedRevision }
      : null;
  return (
    <div className="space-y-4">
      <header>
        <h1 className="text-2xl font-semibold">
          <InlineMarkdown>{s.issueId.title}</InlineMarkdown>{" "}
          <span className="text-slate-500 dark:text-slate-400">#{s.issueId.issueNumber}</span>
        </h1>
        <p className="mt-1 flex flex-wrap gap-x-3 gap-y-1 text-sm text-slate-700 dark:text-slate-300">
          <span>{m.repository}</span>
          {m.baseBranch && <span data-testid="base-branch">Base branch: {m.baseBranch}</span>}
          <span>Model: {s.aiModel}</span>
          <span>Type: {m.classification.type}</span>
          <span>Complexity: {complexity(m.classification.complexity)}</span>
          <span>
            Confidence:{" "}
            <span className={`font-semibold ${CONFIDENCE_TEXT[confidenceBand(s.confidence)]}`}>{s.confidence}%</span>
          </span>
          {m.refinementCount > 0 && <span>Refinements: {m.refinementCount}</span>}
        </p>
        <TestsNotRunNotice tests={m.tests} className="mt-2" />
      </header>
      {s.status !== "pending" && <DecidedPanel status={s.status} pullRequest={pr} />}
      {unpushed && (
        <PushRevisionPanel
          pullRequestId={unpushed.pr.id}
          number={unpushed.pr.number}
          revision={s.revision}
          pushed={unpushed.pushed}
          actions={s.issueId.actions}
        />
      )}
      {m.unverified && <UnverifiedNotice reason={m.unverified.reason} />}
      <div className="grid gap-4 md:grid-cols-2">
        <Card>
          <h2 className="font-semibold">Risk Assessment</h2>
          <p className="mt-2 flex items-center gap-2">
            <Badge tone={RISK_TONE[v.riskLevel] ?? "gray"}>{v.riskLevel}</Badge>
            <span className="text-sm">Risk score {RISK_DISPLAY_SCORE[v.riskLevel]}/100</span>
          </p>
          {m.blocked.length > 0 && (
            <ul className="mt-2 text-sm text-red-700 dark:text-red-400">
              {m.blocked.map((b) => (
                <li key={b.path}>
                  Blocked: {b.path} — {b.reason}
                </li>
              ))}
            </ul>
          )}
        </Card>
        <Card>
          <h2 className="font-semibold">Change Statistics</h2>
          <dl className="mt-2 grid grid-cols-2 gap-1 text-sm">
            <dt>Files changed</dt>
            <dd className="text-right tabular-nums">{stats.filesChanged}</dd>
            <dt>Lines added</dt>
            <dd className="text-right tabular-nums text-green-700 dark:text-green-400">+{stats.linesAdded}</dd>
            <dt>Lines removed</dt>
            <dd className="text-right tabular-nums text-red-700 dark:text-red-400">-{stats.linesRemoved}</dd>
            <dt>Percentage changed</dt>
            <dd className="text-right tabular-nums">{stats.percentageChanged}%</dd>
            {stats.newFiles > 0 && (
              <>
                <dt>New files</dt>
                <dd className="text-right tabular-nums">{stats.newFiles}</dd>
              </>
            )}
            {stats.deletedFiles > 0 && (
              <>
                <dt>Deleted files</dt>
                <dd className="text-right tabular-nums">{stats.deletedFiles}</dd>
              </>
            )}
          </dl>
        </Card>
      </div>
      {warnings.length > 0 && (
        <Card className="border-amber-300 dark:border-amber-800">
          <h2 className="font-semibold">Warnings</h2>
          <ul className="mt-2 space-y-1 text-sm">
            {warnings.map((w, i) => (
              <li key={i} className="flex gap-2">
                <AlertTriangle className="size-4 shrink-0 text-amber-600" aria-hidden /> {w}
              </li>
            ))}
          </ul>
        </Card>
      )}
      {v.suggestions.length > 0 && (
        <Card>
          <h2 className="font-semibold">AI Suggestions</h2>
          <ul className="mt-2 list-disc space-y-1 pl-5 text-sm">
            {v.suggestions.map((x, i) => (
              <li key={i}>{x}</li>
            ))}
          </ul>
        </Card>
      )}
      {m.testSuggestions.length > 0 && (
        <Card>
          <h2 className="font-semibold">Testing Checklist</h2>
          <ul className="mt-2 space-y-1 text-sm">
            {m.testSuggestions.map((t, i) => (
              <li key={i}>
                <label className="flex gap-2">
                  <input type="checkbox" /> {t}
                </label>
              </li>
            ))}
          </ul>
        </Card>
      )}
      <SolutionSummary
        analysis={s.analysis}
        proposedSolution={s.proposedSolution}
        filesAction={<DiffLayoutToggle />}
        filesIntro={
          previous && <RefinementSummary previous={previous} files={s.filesChanged} refinement={m.refinementCount} />
        }
        files={s.filesChanged.map((f) => (
          <EditableFile
            key={`${f.filename}:${s.revision}`}
            solutionId={s._id}
            file={f}
            comments={comments}
            editable={changeable}
            refined={previous ? refinedChange(previous, f, m.refinementCount) : undefined}
          />
        ))}
        aside={<TestsPanel tests={m.tests} solutionId={s._id} />}
      />
      {m.candidates && (
        <CandidatesPanel
          solutionId={s._id}
          candidates={m.candidates}
          pending={changeable}
          onSwitched={() => void q.refetch()}
        />
      )}
      {m.reproduction && (
        <ReproductionPanel
          solutionId={s._id}
          reproduction={m.reproduction}
          passes={m.reproductionPasses}
          included={s.filesChanged.some((f) => f.filename === m.reproduction?.filename)}
          pending={changeable}
          onIncluded={() => void q.refetch()}
        />
      )}
      {s.runId && <ModelSawPanel runId={s.runId} />}
      {s.runId && <AgentTrajectoryPanel runId={s.runId} />}
      {s.status === "pending" && (
        <>
          {/* A refinement the API would refuse is not offered (the decision card says why). One already
              running is still followed, so it can be cancelled. */}
          {(s.issueId.actions.refine.allowed || refining) && (
            <RefinePanel solutionId={s._id} activeRunId={refining} refinementCount={m.refinementCount} />
          )}
          <DecisionPanel
            actions={s.issueId.actions}
            solutionId={s._id}
            issueId={s.issueId._id}
            madeOn={m.baseBranch}
            unverified={m.unverified?.reason ?? null}
            comments={comments}
            setComments={setComments}
            refining={!!refining}
          />
        </>
      )}
    </div>
  );
}
