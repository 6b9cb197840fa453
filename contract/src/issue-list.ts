import { z } from "zod";
import { ISSUE_STATUSES } from "./domain";

/**
 * The Issues page's tabs, filtered by the API: Open (an open status, or a solution awaiting the
 * user's review), Closed (the rest) and All.
 */
export const ISSUE_LIST_TABS = ["open", "closed", "all"] as const;
export type IssueListTab = (typeof ISSUE_LIST_TABS)[number];

/** The most issues one page of the list holds, and how many it holds unless asked for fewer. */
export const ISSUE_PAGE_MAX = 100;

/**
 * `GET /api/issues`: one page of the user's issues, newest first. `cursor` is the `nextCursor` of
 * the page before (opaque; omitted for the first page), `limit` the page's size, `q` text the
 * issue's title or `owner/repo#number` contains (case-insensitive, taken literally).
 */
export const IssueListQuery = z.object({
  status: z.enum(ISSUE_STATUSES).optional(),
  tab: z.enum(ISSUE_LIST_TABS).optional(),
  cursor: z.string().max(200).optional(),
  q: z.string().trim().max(200).optional(),
  limit: z.coerce.number().int().min(1).max(ISSUE_PAGE_MAX).optional(),
});
export type IssueListQuery = z.infer<typeof IssueListQuery>;

/**
 * How many issues each tab holds, and how many are completed (solved or with a pull request, the
 * success rate's base). Sent with the first page only: later pages keep the first page's counts.
 */
export const IssueCounts = z.object({
  open: z.number().int(),
  closed: z.number().int(),
  all: z.number().int(),
  completed: z.number().int(),
});
export type IssueCounts = z.infer<typeof IssueCounts>;
