import { queryOptions } from "@tanstack/react-query";
import { request } from "./errors";
import type { Repository } from "./types";

export const repositoriesQuery = () =>
  queryOptions({
    queryKey: ["repositories"],
    queryFn: () => request<{ repositories: Repository[]; requiresAuthorization: boolean }>("/github/repositories"),
  });
