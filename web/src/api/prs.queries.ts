import { queryOptions } from "@tanstack/react-query";
import { api } from "./client";
import { unwrap } from "./errors";

export const pullRequestsQuery = () => queryOptions({ queryKey: ["prs"], queryFn: () => unwrap(api.prs.$get()) });
