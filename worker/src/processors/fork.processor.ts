import { ForkJob, QUEUES } from "@fixloop/contract";
import { importIssue } from "../fork/fork.service";
import { defineProcessor } from "./processor.define";

/** Import of a public issue: fork (once), wait for it, store the issue. */
export const processFork = defineProcessor({
  name: QUEUES.fork,
  what: (job) => {
    const { owner, repo, issueNumber } = ForkJob.parse(job.data);
    return `the import of ${owner}/${repo}#${issueNumber}`;
  },
  run: ({ job, ctx, signal }) => importIssue(ForkJob.parse(job.data), ctx, signal),
});
