import { z } from "zod";
import { githubLogin, githubRepoName } from "@fixloop/contract";

export const ParseUrlRequest = z.object({ url: z.string().max(2000) });

export const IssueRef = z.object({
  owner: githubLogin(),
  repo: githubRepoName(),
  // A JSON number, or its decimal digits as a string (from a parsed URL); never `true`, `[2]` or `1e3`.
  issueNumber: z
    .union([
      z.number(),
      z
        .string()
        .regex(/^[1-9][0-9]{0,8}$/, "Invalid issue number")
        .transform(Number),
    ])
    .pipe(z.number().int("Invalid issue number").positive("Invalid issue number").max(999_999_999)),
});
export type IssueRef = z.infer<typeof IssueRef>;

export const ImportIssueRequest = IssueRef.extend({
  /** The user has read the warnings (assigned, linked pull request, disclosure or draft required) and goes ahead. */
  acknowledgeWarnings: z.boolean().optional(),
});
export type ImportIssueRequest = z.infer<typeof ImportIssueRequest>;
