import { useEffect, useRef, useState } from "react";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { Link, useNavigate } from "@tanstack/react-router";
import { ArrowLeft, Sparkles, Square } from "lucide-react";
import { toast } from "sonner";
import { issueQuery, issuesQuery } from "../../api/issues.queries";
import { modelsQuery } from "../../api/models.queries";
import { runQuery } from "../../api/runs.queries";
import { api } from "../../api/client";
import { ApiError, errorMessage, unwrap } from "../../api/errors";
import type { Run } from "../../api/runs.queries";
import { getDefaultModel } from "../../shell/preferences";
import { Button, Card, LabelList, Spinner } from "../../ui/ui";
import { IssueDescription } from "../issues/IssueDescription";
import { ActionNotice } from "../issues/ActionNotice";
import { LoadFailure } from "../../ui/NotFound";
import { ModelPicker, initialModel } from "./ModelPicker";
import { isTerminal, stoppedReason, useLiveRun } from "./run-events";
import { RunEndNote } from "./RunEndNote";
import { SolutionResult } from "./SolutionResult";
import { StepsPanel } from "./StepsPanel";
import { RunEvidence } from "./RunEvidence";
import { RunResumedNote, RunTriggerNote } from "./RunTriggerNote";
import { TrustLine } from "./TrustLine";
import { UpgradePrompt } from "./UpgradePrompt";
import { upgradeReasonFor, type UpgradeReason } from "./upgrade-reason";
import { InlineMarkdown } from "../../ui/Markdown";
import { OpenPullRequestNotice } from "../issues/OpenPullRequest";
import { LinkedPullConfirm, LinkedPullRequestsNotice } from "../issues/LinkedPullRequests";
import { AwaitingReviewNote } from "../issues/AwaitingReviewNote";
import { CostEstimate, RunCostLine } from "./CostEstimate";
import type { RunMode } from "@fixloop/contract";
import { CandidatesPicker } from "../candidates/CandidatesPicker";
import { RunModePicker } from "../agent/RunModePicker";
import { AgentTrajectoryLive } from "../agent/AgentTrajectoryLive";
import { CandidateRowsLive } from "../candidates/CandidateRowsLive";
import { candidateSettingsQuery } from "../candidates/candidates.queries";
import { BaseBranchPicker } from "../branches/BaseBranchPicker";
import { AwaitingReviewConfirm } from "./AwaitingReviewConfirm";

const isAwaitingReview = (err: unknown) => err instanceof ApiError && err.code === "solve.awaiting_review";

export function SolvePage({
  issueId,
  runId,
  start,
  branch: initialBranch,
}: {
  issueId: string;
  runId?: string;
  start?: boolean;
  branch?: string;
}) {
  const qc = useQueryClient();
  const navigate = useNavigate();
  const issue = useQuery(issueQuery(issueId));
  const models = useQuery(modelsQuery());
  const [model, setModel] = useState("");
  const settings = useQuery(candidateSettingsQuery()).data;
  const candidateDefault = settings?.defaultCandidates;
  const [chosenMode, setMode] = useState<RunMode | null>(null);
  const mode = chosenMode ?? settings?.defaultMode ?? "single";
  const [chosenCandidates, setCandidates] = useState<number | null>(null);
  const candidates = chosenCandidates ?? candidateDefault ?? 1;
  // "" is the repository's default branch (the server's choice when none is sent).
  const [branch, setBranch] = useState(initialBranch ?? "");
  const [upgrade, setUpgrade] = useState<UpgradeReason | null>(null);
  const [confirmLinked, setConfirmLinked] = useState(false);
  // The solution awaiting review that Generate asks about (from the issue, or named by the API's 409).
  const [awaiting, setAwaiting] = useState<string | null>(null);
  const watchedLive = useRef(false);
  const autoStarted = useRef(false);

  useEffect(() => {
    if (!model && models.data) setModel(initialModel(models.data.allModels, getDefaultModel()));
  }, [models.data, model]);

  const setRun = (id: string | undefined) =>
    void navigate({
      to: "/issues/$issueId/solve",
      params: { issueId },
      search: { ...(id ? { run: id } : {}), ...(branch ? { branch } : {}) },
      replace: true,
    });

  const run = useLiveRun(runId, (r: Run) => {
    void qc.invalidateQueries({ queryKey: issuesQuery().queryKey });
    // What may be done next is read again with the end (the issue may have gone meanwhile).
    if (watchedLive.current) void qc.invalidateQueries({ queryKey: runQuery(r._id).queryKey, exact: true });
    if (r.status === "completed" && watchedLive.current) {
      const start = r.createdAt ?? r.steps[0]?.startedAt;
      const secs = start ? Math.round((Date.now() - Date.parse(start)) / 1000) : 0;
      toast.success(`Solution generated successfully! (${secs}s)`);
    }
    if (r.status === "failed" && watchedLive.current) toast.error(r.error?.message ?? "Failed to generate solution");
    const stopped = stoppedReason(r);
    if (stopped && watchedLive.current) toast.error(stopped);
  });
  if (run.data && !watchedLive.current && !isTerminal(run.data)) watchedLive.current = true;

  const generate = useMutation({
    mutationFn: ({ solveAgain }: { solveAgain?: boolean } = {}) =>
      unwrap(
        api.ai["generate-solution"].$post({
          query: {},
          json: {
            issueId,
            modelId: model,
            // Unchosen, the server applies the Settings default (also when it has not loaded here yet).
            ...(chosenCandidates !== null ? { candidates: chosenCandidates } : {}),
            ...(chosenMode !== null ? { mode: chosenMode } : {}),
            ...(branch ? { baseBranch: branch } : {}),
            ...(solveAgain ? { solveAgain } : {}),
          },
        }),
      ),
    onSuccess: ({ runId: id }) => {
      setAwaiting(null);
      watchedLive.current = true;
      setRun(id);
    },
    onError: (err) => {
      if (start) setRun(undefined);
      // The page's issue was older than the solution: ask now, as Generate would have.
      if (isAwaitingReview(err)) {
        // The note above the button appears with the issue read again.
        void qc.invalidateQueries({ queryKey: issueQuery(issueId).queryKey });
        const named = /solution ([0-9a-f-]{36})/.exec((err as Error).message)?.[1];
        return setAwaiting(named ?? issue.data?.issue.awaitingReview?.solutionId ?? null);
      }
      const reason = err instanceof ApiError ? upgradeReasonFor(err.code) : null;
      if (reason) setUpgrade(reason);
      else toast.error(errorMessage(err, "Failed to generate solution"));
    },
  });
  // "Import & Solve with AI" lands here with ?start: the solve starts once, as if Generate were pressed.
  useEffect(() => {
    if (!start || runId || autoStarted.current || !model || !issue.data) return;
    autoStarted.current = true;
    const m = models.data?.allModels.find((x) => x.id === model);
    if (m && !m.allowed) {
      setRun(undefined);
      return setUpgrade("model_access");
    }
    // Arriving to solve an issue whose solution awaits review asks first, as the button does.
    const waiting = issue.data.issue.awaitingReview?.solutionId;
    if (waiting) {
      setRun(undefined);
      return setAwaiting(waiting);
    }
    generate.mutate({});
  }, [start, runId, model, issue.data]);

  const resume = useMutation({
    mutationFn: (id: string) => unwrap(api.runs[":id"].resume.$post({ param: { id } })),
    onSuccess: (_d, id) => {
      watchedLive.current = true;
      void qc.invalidateQueries({ queryKey: runQuery(id).queryKey });
    },
    onError: (err) => toast.error(errorMessage(err, "Failed to resume the run")),
  });
  const cancel = useMutation({
    mutationFn: (id: string) => unwrap(api.runs[":id"].cancel.$post({ param: { id } })),
    onSuccess: (_d, id) => void qc.invalidateQueries({ queryKey: runQuery(id).queryKey }),
    onError: (err) => toast.error(errorMessage(err, "Failed to cancel")),
  });

  if (issue.isPending) return <Spinner label="Loading issue..." />;
  if (issue.isError)
    return (
      <LoadFailure
        error={issue.error}
        notFound="Issue not found"
        failed="Failed to load issue"
        to="/issues"
        label="Back to Issues"
      />
    );
  const i = issue.data.issue;
  const r = run.data;
  // The run's view serves its issue's actions as the issue's does; without a run, the issue's say.
  const actions = r?.actions ?? i.actions;
  const capStop = r?.status === "failed" && !!r.error?.code.startsWith("cost.");
  const endNote = r && <RunEndNote run={r} resume={capStop && actions.resume.allowed ? resume : null} />;
  const active = !!r && (r.status === "queued" || r.status === "running");
  // Shown from the click on; the run's own cancelled event then ends it.
  const cancelling = !!r && cancel.variables === r._id && !cancel.isError;
  // Spec §5: choosing a model the plan does not include is refused and explains the upgrade.
  const onChoose = (id: string) => {
    const m = models.data?.allModels.find((x) => x.id === id);
    if (m && !m.allowed) setUpgrade("model_access");
    else setModel(id);
  };
  const onGenerate = (confirmed = false) => {
    const m = models.data?.allModels.find((x) => x.id === model);
    if (m && !m.allowed) return setUpgrade("model_access");
    if (!confirmed && i.linkedPullRequests.length > 0) return setConfirmLinked(true);
    if (i.awaitingReview) return setAwaiting(i.awaitingReview.solutionId);
    generate.mutate({});
  };

  return (
    <div className="space-y-4">
      <Card>
        <p className="text-sm text-slate-600 dark:text-slate-400">
          #{i.issueNumber} · {i.repoFullName}
        </p>
        <TrustLine
          fullName={i.repoFullName}
          foreign={i.isImported && !!i.forkFullName && i.forkFullName.toLowerCase() !== i.repoFullName.toLowerCase()}
        />
        <h1 className="mt-1 text-2xl font-semibold">
          <InlineMarkdown>{i.title}</InlineMarkdown>
        </h1>
        <LabelList labels={i.labels} />
        <IssueDescription body={i.body} />
      </Card>
      {(!r || r.status === "failed" || r.status === "cancelled") && (
        <Card>
          {i.openPullRequest && <OpenPullRequestNotice pr={i.openPullRequest} />}
          <AwaitingReviewNote issue={i} />
          <LinkedPullRequestsNotice issue={i} />
          {/* Refused, what happened comes before what cannot be done now. */}
          {!actions.solve.allowed && endNote}
          {/* A solve (or a resume) the API would refuse is not offered; the notice says why (an open pull request, above, with its link). */}
          <ActionNotice
            actions={actions}
            of={capStop ? ["resume", "solve"] : ["solve"]}
            except={["issue.pull_request_open"]}
            next={
              <Link to="/issues" className="inline-flex items-center gap-1 font-medium underline">
                <ArrowLeft className="size-4" aria-hidden /> Back to Issues
              </Link>
            }
          />
          {actions.solve.allowed && (
            <>
              {/* Labels on one line, controls on the next: the model's description below it must not push the others down. */}
              <div className="flex flex-col gap-3 sm:flex-row sm:items-start">
                <ModelPicker
                  models={models.data?.allModels ?? []}
                  value={model}
                  onChange={onChoose}
                  disabled={generate.isPending}
                />
                <BaseBranchPicker issueId={issueId} value={branch} onChange={setBranch} disabled={generate.isPending} />
                <CandidatesPicker value={candidates} onChange={setCandidates} disabled={generate.isPending} />
                <RunModePicker value={mode} onChange={setMode} disabled={generate.isPending} />
                <Button onClick={() => onGenerate()} busy={generate.isPending} disabled={!model} className="sm:mt-6">
                  <Sparkles className="size-4" aria-hidden /> Generate Solution
                </Button>
              </div>
              {model && <CostEstimate modelId={model} candidates={candidates} mode={mode} />}
            </>
          )}
          {actions.solve.allowed && endNote}
          {!r && generate.isError && !isAwaitingReview(generate.error) && (
            <p role="alert" className="mt-3 text-sm text-red-700 dark:text-red-400">
              The solve did not start: {errorMessage(generate.error, "Failed to generate solution")}
            </p>
          )}
        </Card>
      )}
      {runId && run.isPending && <Spinner label="Connecting to the run..." />}
      {r && <RunTriggerNote run={r} />}
      {r && <RunResumedNote run={r} />}
      {r && r.status !== "completed" && <StepsPanel run={r} cancelling={cancelling} />}
      {r && <CandidateRowsLive runId={r._id} />}
      {r && <AgentTrajectoryLive runId={r._id} />}
      {active && (
        <Button variant="secondary" onClick={() => cancel.mutate(r._id)} busy={cancel.isPending} disabled={cancelling}>
          <Square className="size-4" aria-hidden /> {cancelling ? "Cancelling…" : "Cancel"}
        </Button>
      )}
      {r?.status === "completed" && <RunCostLine run={r} />}
      {r?.status === "completed" && <RunEvidence run={r} open={watchedLive.current} />}
      {r?.status === "completed" && r.solutionId && (
        <SolutionResult
          solutionId={r.solutionId}
          actions={r.actions}
          modelId={model || undefined}
          onReset={() => setRun(undefined)}
          onRun={(id) => {
            watchedLive.current = true;
            setRun(id);
          }}
        />
      )}
      <UpgradePrompt reason={upgrade} onClose={() => setUpgrade(null)} />
      <AwaitingReviewConfirm
        solutionId={awaiting}
        open={awaiting !== null}
        busy={generate.isPending}
        onCancel={() => setAwaiting(null)}
        onSolveAgain={() => generate.mutate({ solveAgain: true })}
      />
      <LinkedPullConfirm
        issue={i}
        open={confirmLinked}
        onCancel={() => setConfirmLinked(false)}
        onConfirm={() => {
          setConfirmLinked(false);
          onGenerate(true);
        }}
      />
    </div>
  );
}
