import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { toast } from "sonner";
import { api } from "../../api/client";
import { errorMessage, unwrap } from "../../api/errors";
import { Card } from "../../ui/ui";
import { candidateSettingsQuery } from "./candidates.queries";
import { CandidatesPicker } from "./CandidatesPicker";
import { RunModePicker } from "../agent/RunModePicker";
import type { RunMode } from "@fixloop/contract";

/** The default number of candidate patches per solve (the solve page can change it per run). */
export function CandidateSettings() {
  const qc = useQueryClient();
  const settings = useQuery(candidateSettingsQuery());
  const save = useMutation({
    mutationFn: (json: { defaultCandidates?: number; presentUnverified?: boolean; defaultMode?: RunMode }) =>
      unwrap(api.settings.candidates.$put({ json })),
    onSuccess: (body) => qc.setQueryData(candidateSettingsQuery().queryKey, body),
    onError: (err) => toast.error(errorMessage(err, "Failed to save the setting")),
  });
  return (
    <Card>
      <h2 className="font-semibold">Candidate patches</h2>
      <div className="mt-2">
        <CandidatesPicker
          value={settings.data?.defaultCandidates ?? 1}
          disabled={!settings.data || save.isPending}
          onChange={(n) => save.mutate({ defaultCandidates: n })}
        />
      </div>
      <p className="mt-1 text-xs text-slate-600 dark:text-slate-400">
        Each candidate is one more model answer (and its cost); every candidate&apos;s tests run and the best evidence
        wins.
      </p>
      <div className="mt-3">
        <RunModePicker
          value={settings.data?.defaultMode ?? "single"}
          disabled={!settings.data || save.isPending}
          onChange={(m) => save.mutate({ defaultMode: m })}
        />
      </div>
      <p className="mt-1 text-xs text-slate-600 dark:text-slate-400">
        Investigate lets the model search, open files, run commands in the sandbox and edit before it submits: more
        model turns (each one counted against your caps), usually a better fix.
      </p>
      <label className="mt-3 flex items-start gap-2 text-sm">
        <input
          type="checkbox"
          className="mt-1"
          checked={settings.data ? !settings.data.presentUnverified : false}
          disabled={!settings.data || save.isPending}
          onChange={(e) => save.mutate({ presentUnverified: !e.target.checked })}
        />
        <span>
          Do not present unverified solutions
          <span className="block text-xs text-slate-600 dark:text-slate-400">
            When no candidate has positive test evidence, the run ends with no solution (the server&apos;s default:{" "}
            {settings.data?.presentUnverifiedDefault === false ? "not presented" : "presented"}).
          </span>
        </span>
      </label>
    </Card>
  );
}
