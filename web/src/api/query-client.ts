import { QueryClient } from "@tanstack/react-query";
import { ApiError } from "./errors";

/** Spec §7: one retry, no refetch on focus; 4xx answers are final and never retried. */
export function createQueryClient() {
  return new QueryClient({
    defaultOptions: {
      queries: {
        refetchOnWindowFocus: false,
        retry: (count, err) => !(err instanceof ApiError && err.status < 500) && count < 1,
      },
    },
  });
}

/** Dashboard reads: fresh 5 minutes, 3 retries. */
export const DASHBOARD_QUERY = {
  staleTime: 5 * 60_000,
  retry: (count: number, err: unknown) => !(err instanceof ApiError && err.status < 500) && count < 3,
} as const;
