import { z } from "zod";

export const ParseUrlRequest = z.object({ url: z.string().max(2000) });

export const IssueRef = z.object({
  owner: z.string().regex(/^[A-Za-z0-9](?:[A-Za-z0-9-]{0,38})$/, "Invalid repository owner"),
  repo: z.string().regex(/^[A-Za-z0-9._-]{1,100}$/, "Invalid repository name"),
  issueNumber: z.coerce.number().int().positive().max(999_999_999),
});
export type IssueRef = z.infer<typeof IssueRef>;

export const ImportIssueRequest = IssueRef.extend({
  /** The user has read the warnings (assigned, linked pull request, disclosure or draft required) and goes ahead. */
  acknowledgeWarnings: z.boolean().optional(),
});
export type ImportIssueRequest = z.infer<typeof ImportIssueRequest>;
