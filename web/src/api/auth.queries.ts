import { queryOptions } from "@tanstack/react-query";
import { api } from "./client";
import { ApiError, unwrap } from "./errors";
import type { User } from "./types";

/** The signed-in user, or null when the session cookie is missing or expired. */
export const meQuery = () =>
  queryOptions({
    queryKey: ["auth", "me"],
    queryFn: async (): Promise<User | null> => {
      try {
        const { user } = await unwrap(api.auth.me.$get());
        return user;
      } catch (err) {
        if (err instanceof ApiError && err.status === 401) return null;
        throw err;
      }
    },
    staleTime: 5 * 60_000,
    retry: false,
  });

export const configQuery = () =>
  queryOptions({ queryKey: ["config"], queryFn: () => unwrap(api.config.$get()), staleTime: Infinity });
