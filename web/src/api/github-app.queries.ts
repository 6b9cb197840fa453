import { queryOptions } from "@tanstack/react-query";
import { api } from "./client";
import { unwrap } from "./errors";

/** How often the installations are read again while one exists: changes made on GitHub show up without a click. */
export const INSTALLATIONS_POLL_MS = 4000;

export const githubAppQuery = () =>
  queryOptions({
    queryKey: ["github-app"],
    queryFn: () => unwrap(api.github.app.$get()),
    refetchInterval: (q) => ((q.state.data?.installations.length ?? 0) > 0 ? INSTALLATIONS_POLL_MS : false),
  });
