import { queryOptions } from "@tanstack/react-query";
import { api } from "../../api/client";
import { unwrap } from "../../api/errors";

/** The branches a solution of this issue can be based on (the pull request's repository), default first. */
export const issueBranchesQuery = (issueId: string) =>
  queryOptions({
    queryKey: ["issues", issueId, "branches"],
    queryFn: () => unwrap(api.issues[":id"].branches.$get({ param: { id: issueId } })),
    staleTime: 60_000,
  });
