import { useState, type FormEvent } from "react";
import { queryOptions, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { toast } from "sonner";
import { api } from "../../api/client";
import { errorMessage, unwrap } from "../../api/errors";
import { Button } from "../../ui/ui";

const route = api.github.repositories[":owner"][":repo"]["test-settings"];
type Settings = Awaited<ReturnType<typeof fetchSettings>>;
const fetchSettings = (param: { owner: string; repo: string }) => unwrap(route.$get({ param })).then((b) => b.settings);

export const testSettingsQuery = (owner: string, repo: string) =>
  queryOptions({
    queryKey: ["repositories", owner, repo, "test-settings"],
    queryFn: () => fetchSettings({ owner, repo }),
  });

const blankToNull = (s: string) => (s.trim() === "" ? null : s.trim());

/** Said on a repository the user can only read, whose test settings are still the user's own. */
export const READ_ONLY_TEST_SETTINGS =
  "Yours only: used by your backtests here and your solves of issues you import from this repository, never by its owners' runs.";

/**
 * The user's override of how Fixloop runs this repository's tests (blank = .fixloop.yml, then detection).
 * Settings are kept per user, so a repository the user can only read keeps them too (`readOnly` says whose they are).
 */
export function TestSettings({ owner, repo, readOnly = false }: { owner: string; repo: string; readOnly?: boolean }) {
  const [open, setOpen] = useState(false);
  const q = useQuery({ ...testSettingsQuery(owner, repo), enabled: open });
  return (
    <details className="mt-3 text-sm" onToggle={(e) => setOpen(e.currentTarget.open)}>
      <summary className="cursor-pointer font-medium">Test settings</summary>
      {readOnly && <p className="mt-2 text-slate-600 dark:text-slate-400">{READ_ONLY_TEST_SETTINGS}</p>}
      {q.isPending && open && <p className="mt-2 text-slate-600 dark:text-slate-400">Loading test settings...</p>}
      {q.isError && (
        <p role="alert" className="mt-2 text-red-700 dark:text-red-400">
          {errorMessage(q.error, "Failed to load test settings")}
        </p>
      )}
      {q.data && <SettingsForm owner={owner} repo={repo} saved={q.data} />}
    </details>
  );
}

function SettingsForm({ owner, repo, saved }: { owner: string; repo: string; saved: Settings }) {
  const qc = useQueryClient();
  const [command, setCommand] = useState(saved.command ?? "");
  const [setup, setSetup] = useState(saved.setup ?? "");
  const [timeout, setTimeoutSeconds] = useState(saved.timeoutSeconds?.toString() ?? "");
  const [network, setNetwork] = useState(saved.setupNetwork);
  const save = useMutation({
    mutationFn: (json: Settings) => unwrap(route.$put({ param: { owner, repo }, json })),
    onSuccess: (body) => {
      qc.setQueryData(testSettingsQuery(owner, repo).queryKey, body.settings);
      toast.success("Test settings saved");
    },
    onError: (err) => toast.error(errorMessage(err, "Failed to save test settings")),
  });
  const id = `${owner}-${repo}-tests`;
  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    save.mutate({
      command: blankToNull(command),
      setup: blankToNull(setup),
      timeoutSeconds: timeout.trim() ? Number(timeout) : null,
      setupNetwork: network,
    });
  };
  const field =
    "mt-1 w-full rounded-lg border border-slate-300 bg-white px-2 py-1.5 font-mono text-xs dark:border-slate-600 dark:bg-slate-950";
  return (
    <form onSubmit={onSubmit} className="mt-2 space-y-2">
      <p className="text-slate-600 dark:text-slate-400">Leave blank to use .fixloop.yml or what Fixloop detects.</p>
      <label className="block" htmlFor={`${id}-command`}>
        Test command
        <input
          id={`${id}-command`}
          className={field}
          value={command}
          onChange={(e) => setCommand(e.target.value)}
          placeholder="npm test"
          maxLength={500}
        />
      </label>
      <label className="block" htmlFor={`${id}-setup`}>
        Setup command
        <input
          id={`${id}-setup`}
          className={field}
          value={setup}
          onChange={(e) => setSetup(e.target.value)}
          placeholder="npm ci"
          maxLength={500}
        />
      </label>
      <label className="block" htmlFor={`${id}-timeout`}>
        Timeout (seconds)
        <input
          id={`${id}-timeout`}
          className={field}
          type="number"
          min={5}
          max={3600}
          value={timeout}
          onChange={(e) => setTimeoutSeconds(e.target.value)}
          placeholder="default"
        />
      </label>
      <label className="flex items-center gap-2">
        <input type="checkbox" checked={network} onChange={(e) => setNetwork(e.target.checked)} /> Setup may use the
        network (tests never do)
      </label>
      <Button
        type="submit"
        variant="secondary"
        busy={save.isPending}
        aria-label={`Save test settings of ${owner}/${repo}`}
      >
        Save
      </Button>
    </form>
  );
}
