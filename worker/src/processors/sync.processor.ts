import { QUEUES, SyncJob } from "@fixloop/contract";
import { syncRepositories } from "../sync/repositories.sync";
import { syncIssues } from "../sync/issues.sync";
import { syncPullRequests } from "../sync/pull-requests.sync";
import { pollPullRequests } from "../sync/pull-requests.poll";
import { catchUpInstallations } from "../sync/installations.catch-up";
import { readCheckLog } from "../sync/check-log.sync";
import { defineProcessor } from "./processor.define";

/** One queue for every GitHub read-sync; the payload's kind picks the handler. */
export const processSync = defineProcessor({
  name: QUEUES.sync,
  what: (job) => `the ${SyncJob.parse(job.data).kind} sync`,
  async run({ job, ctx, signal }) {
    const data = SyncJob.parse(job.data);
    switch (data.kind) {
      case "repositories":
        return syncRepositories(data, ctx, signal);
      case "issues":
        return syncIssues(data, ctx, signal);
      case "pull-requests":
        return syncPullRequests(data, ctx, signal);
      case "poll-pull-requests":
        return pollPullRequests(ctx, signal);
      case "installations":
        return catchUpInstallations(ctx);
      case "check-log":
        return readCheckLog(data, ctx, signal);
    }
  },
});
