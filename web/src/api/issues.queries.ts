import { queryOptions } from "@tanstack/react-query";
import { request } from "./errors";
import type { Issue } from "./types";

export const issuesQuery = () =>
  queryOptions({ queryKey: ["issues"], queryFn: () => request<{ issues: Issue[] }>("/issues") });

export const issueQuery = (id: string) =>
  queryOptions({ queryKey: ["issues", id], queryFn: () => request<{ issue: Issue }>(`/issues/${encodeURIComponent(id)}`) });
