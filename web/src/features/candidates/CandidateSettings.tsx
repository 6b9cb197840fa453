import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { toast } from "sonner";
import { api } from "../../api/client";
import { errorMessage, unwrap } from "../../api/errors";
import { Card } from "../../ui/ui";
import { candidateSettingsQuery } from "./candidates.queries";
import { CandidatesPicker } from "./CandidatesPicker";

/** The default number of candidate patches per solve (the solve page can change it per run). */
export function CandidateSettings() {
  const qc = useQueryClient();
  const settings = useQuery(candidateSettingsQuery());
  const save = useMutation({
    mutationFn: (defaultCandidates: number) => unwrap(api.settings.candidates.$put({ json: { defaultCandidates } })),
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
          onChange={(n) => save.mutate(n)}
        />
      </div>
      <p className="mt-1 text-xs text-slate-600 dark:text-slate-400">
        Each candidate is one more model answer (and its cost); every candidate&apos;s tests run and the best evidence
        wins.
      </p>
    </Card>
  );
}
