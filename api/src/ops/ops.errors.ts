import { AppError } from "../http/errors";

export const opsErrors = {
  forbidden: () =>
    new AppError(403, "ops.forbidden", "The operations page is for the administrators listed in ADMIN_GITHUB_LOGINS"),
  queueNotFound: (name: string) => new AppError(404, "ops.queue_not_found", `No queue named "${name.slice(0, 100)}"`),
  workerNotFound: () =>
    new AppError(404, "ops.worker_not_found", "No live worker process has that id (it may have stopped)"),
  workerNotRunning: (state: string) =>
    new AppError(409, "ops.worker_not_running", `That worker is already ${state}; it takes no new jobs`),
  runNotFound: () => new AppError(404, "run.not_found", "Run not found"),
};
