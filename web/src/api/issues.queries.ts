import { queryOptions } from "@tanstack/react-query";
import { api } from "./client";
import { unwrap } from "./errors";

export const issuesQuery = () =>
  queryOptions({ queryKey: ["issues"], queryFn: () => unwrap(api.issues.$get({ query: {} })) });

export const issueQuery = (id: string) =>
  queryOptions({ queryKey: ["issues", id], queryFn: () => unwrap(api.issues[":id"].$get({ param: { id } })) });
