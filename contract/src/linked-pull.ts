import { z } from "zod";

/** An open pull request on GitHub that references an issue (`issues.linked_pull_requests`). */
export const LinkedPullRequest = z.object({
  number: z.number().int(),
  htmlUrl: z.string(),
  login: z.string(),
  repoFullName: z.string(),
  draft: z.boolean(),
});
export type LinkedPullRequest = z.infer<typeof LinkedPullRequest>;
