import { infiniteQueryOptions, queryOptions } from "@tanstack/react-query";
import type { IssueListTab } from "@fixloop/contract";
import { api } from "./client";
import { unwrap } from "./errors";

/** The first page of the user's issues (newest first) with every tab's counts. */
export const issuesQuery = () =>
  queryOptions({ queryKey: ["issues"], queryFn: () => unwrap(api.issues.$get({ query: {} })) });

/** The newest 100 of the user's issues whose title or `owner/repo#number` contains `q` (the server searches them all). */
export const issueSearchQuery = (q: string) =>
  queryOptions({
    queryKey: ["issues", "search", q],
    queryFn: () => unwrap(api.issues.$get({ query: q ? { q } : {} })),
  });

/** The Issues page's list of one tab, read a page at a time as the user asks for more. */
export const issuePagesQuery = (tab: IssueListTab) =>
  infiniteQueryOptions({
    queryKey: ["issues", "pages", tab],
    queryFn: ({ pageParam }) =>
      unwrap(api.issues.$get({ query: pageParam === null ? { tab } : { tab, cursor: pageParam } })),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.nextCursor,
  });

export const issueQuery = (id: string) =>
  queryOptions({ queryKey: ["issues", id], queryFn: () => unwrap(api.issues[":id"].$get({ param: { id } })) });
