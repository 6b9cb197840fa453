import { queryOptions } from "@tanstack/react-query";
import { api } from "./client";
import { unwrap } from "./errors";
import type { User } from "./types";

/**
 * The signed-in user, or null when the session cookie is missing or expired. Asked of
 * `/auth/session`, which answers 200 either way: a signed-out page logs no failed request.
 */
export const meQuery = () =>
  queryOptions({
    queryKey: ["auth", "me"],
    queryFn: async (): Promise<User | null> => (await unwrap(api.auth.session.$get())).user,
    staleTime: 5 * 60_000,
    retry: false,
  });

export const configQuery = () =>
  queryOptions({ queryKey: ["config"], queryFn: () => unwrap(api.config.$get()), staleTime: Infinity });
