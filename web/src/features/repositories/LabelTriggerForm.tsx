import { useState, type FormEvent } from "react";
import { queryOptions, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { toast } from "sonner";
import { api } from "../../api/client";
import { errorMessage, unwrap } from "../../api/errors";
import { Button } from "../../ui/ui";

const route = api.github.repositories[":owner"][":repo"]["label-trigger"];
type Setting = Awaited<ReturnType<typeof fetchTrigger>>;
type Trigger = Setting["trigger"];
const fetchTrigger = (param: { owner: string; repo: string }) => unwrap(route.$get({ param }));

export const labelTriggerQuery = (owner: string, repo: string) =>
  queryOptions({
    queryKey: ["repositories", owner, repo, "label-trigger"],
    queryFn: () => fetchTrigger({ owner, repo }),
  });

/** "Solve issues labelled X": opt-in per repository, under the user's plan, caps and candidate settings. */
export function LabelTrigger({ owner, repo }: { owner: string; repo: string }) {
  const [open, setOpen] = useState(false);
  const q = useQuery({ ...labelTriggerQuery(owner, repo), enabled: open });
  return (
    <details className="mt-3 text-sm" onToggle={(e) => setOpen(e.currentTarget.open)}>
      <summary className="cursor-pointer font-medium">Solve on label</summary>
      {q.isPending && open && <p className="mt-2 text-slate-600 dark:text-slate-400">Loading...</p>}
      {q.isError && (
        <p role="alert" className="mt-2 text-red-700 dark:text-red-400">
          {errorMessage(q.error, "Failed to load the label setting")}
        </p>
      )}
      {q.data && <TriggerForm owner={owner} repo={repo} saved={q.data.trigger} />}
      {q.data?.lastRefused && <RefusedNote refused={q.data.lastRefused} />}
    </details>
  );
}

function TriggerForm({ owner, repo, saved }: { owner: string; repo: string; saved: Trigger }) {
  const qc = useQueryClient();
  const [enabled, setEnabled] = useState(saved.enabled);
  const [label, setLabel] = useState(saved.label);
  const [senders, setSenders] = useState(saved.allowedSenders.join(", "));
  const save = useMutation({
    mutationFn: (json: Trigger) => unwrap(route.$put({ param: { owner, repo }, json })),
    onSuccess: (body) => {
      qc.setQueryData(labelTriggerQuery(owner, repo).queryKey, (old) =>
        old ? { ...old, trigger: body.trigger } : undefined,
      );
      toast.success(
        body.trigger.enabled ? `Issues labelled ${body.trigger.label} will be solved` : "Solve on label off",
      );
    },
    onError: (err) => toast.error(errorMessage(err, "Failed to save the label setting")),
  });
  const id = `${owner}-${repo}-label`;
  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    const allowedSenders = senders
      .split(/[\s,]+/)
      .map((x) => x.trim())
      .filter(Boolean);
    save.mutate({ enabled, label: label.trim(), allowedSenders });
  };
  return (
    <form onSubmit={onSubmit} className="mt-2 space-y-2">
      <p className="text-slate-600 dark:text-slate-400">
        When an issue here gets this label, Fixloop imports it, starts a solve on your plan and comments on the issue
        with a link to the run. Pull requests still wait for your approval. Only a label added by someone with write
        access to the repository counts (checked on GitHub), or by a login you list below: a label an issue template, a
        bot or an auto-labeler puts on someone else's issue starts nothing.
      </p>
      <label className="flex items-center gap-2">
        <input type="checkbox" checked={enabled} onChange={(e) => setEnabled(e.target.checked)} /> Solve issues labelled
      </label>
      <label className="block" htmlFor={`${id}-name`}>
        Label
        <input
          id={`${id}-name`}
          className="mt-1 w-full rounded-lg border border-slate-300 bg-white px-2 py-1.5 font-mono text-xs dark:border-slate-600 dark:bg-slate-950"
          value={label}
          onChange={(e) => setLabel(e.target.value)}
          required
          maxLength={50}
        />
      </label>
      <label className="block" htmlFor={`${id}-senders`}>
        Also allowed to add it (GitHub logins, e.g. a bot&apos;s <span className="font-mono">name[bot]</span>)
        <input
          id={`${id}-senders`}
          className="mt-1 w-full rounded-lg border border-slate-300 bg-white px-2 py-1.5 font-mono text-xs dark:border-slate-600 dark:bg-slate-950"
          value={senders}
          onChange={(e) => setSenders(e.target.value)}
          placeholder="none"
        />
      </label>
      <Button
        type="submit"
        variant="secondary"
        busy={save.isPending}
        aria-label={`Save label setting of ${owner}/${repo}`}
      >
        Save
      </Button>
    </form>
  );
}

/** The last label whose sender could not start a solve here, and why. */
function RefusedNote({ refused }: { refused: NonNullable<Setting["lastRefused"]> }) {
  return (
    <div
      role="status"
      data-testid="label-trigger-refused"
      className="mt-3 rounded-lg border border-amber-300 bg-amber-50 p-2 text-amber-900 dark:border-amber-700 dark:bg-amber-950 dark:text-amber-200"
    >
      <p className="font-medium">
        Last refused: issue #{refused.issueNumber}
        {refused.sender ? (
          <>
            , label added by <span className="font-mono">{refused.sender}</span>
          </>
        ) : null}{" "}
        <time dateTime={refused.at}>({new Date(refused.at).toLocaleString()})</time>
      </p>
      <p className="mt-1 break-words">No run started: {refused.reason}.</p>
    </div>
  );
}
