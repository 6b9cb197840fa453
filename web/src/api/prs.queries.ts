import { queryOptions } from "@tanstack/react-query";
import { api } from "./client";
import { unwrap } from "./errors";

export const pullRequestsQuery = () => queryOptions({ queryKey: ["prs"], queryFn: () => unwrap(api.prs.$get()) });

/** What GitHub reported on one pull request since it was opened (reviews, comments, checks, commits, merge/close). */
export const pullRequestTimelineQuery = (id: string) =>
  queryOptions({
    queryKey: ["prs", id, "timeline"],
    queryFn: () => unwrap(api.prs[":id"].timeline.$get({ param: { id } })),
  });
