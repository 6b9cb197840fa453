import { useMutation, useQueryClient } from "@tanstack/react-query";
import { toast } from "sonner";
import { api } from "../../api/client";
import { errorMessage, unwrap } from "../../api/errors";
import { opsQuery } from "./ops.queries";

/** One operator action: a toast with its outcome, and a fresh snapshot right after it. */
function useOpsAction<V, R>(run: (v: V) => Promise<R>, done: (v: V, out: R) => string, failed: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: run,
    onSuccess: (out, v) => {
      toast.success(done(v, out));
      void qc.invalidateQueries({ queryKey: opsQuery().queryKey });
    },
    onError: (err) => toast.error(errorMessage(err, failed)),
  });
}

export const usePauseQueue = () =>
  useOpsAction(
    ({ name, pause }: { name: string; pause: boolean }) =>
      unwrap(
        pause
          ? api.ops.queues[":name"].pause.$post({ param: { name } })
          : api.ops.queues[":name"].resume.$post({ param: { name } }),
      ),
    ({ name, pause }) => (pause ? `Queue ${name} paused` : `Queue ${name} resumed`),
    "The queue could not be changed",
  );

export const useRetryFailed = () =>
  useOpsAction(
    (name: string) => unwrap(api.ops.queues[":name"]["retry-failed"].$post({ param: { name } })),
    (name) => `Failed jobs of ${name} sent back to the queue`,
    "The failed jobs could not be retried",
  );

export const useDrainWorker = () =>
  useOpsAction(
    (id: string) => unwrap(api.ops.workers[":id"].drain.$post({ param: { id } })),
    () => "Worker draining: it finishes its jobs and takes no new ones",
    "The worker could not be drained",
  );

export const useCancelRun = () =>
  useOpsAction(
    (id: string) => unwrap(api.ops.runs[":id"].cancel.$post({ param: { id } })),
    (_id, out) => (out.status === "cancelled" ? "Run cancelled" : "Cancelling the run: its worker stops it"),
    "The run could not be cancelled",
  );

export const useDismissLostWorker = () =>
  useOpsAction(
    (id: string) => unwrap(api.ops.workers[":id"].dismiss.$post({ param: { id } })),
    () => "Lost worker dismissed",
    "The lost worker could not be dismissed",
  );
