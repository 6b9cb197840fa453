import { queryOptions } from "@tanstack/react-query";
import { request } from "./errors";
import type { PullRequest } from "./types";

export const pullRequestsQuery = () =>
  queryOptions({ queryKey: ["prs"], queryFn: () => request<{ pullRequests: PullRequest[] }>("/prs") });
