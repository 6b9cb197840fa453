import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useNavigate } from "@tanstack/react-router";
import { meQuery } from "../api/auth.queries";
import { api } from "../api/client";
import { unwrap } from "../api/errors";

export function useAuth() {
  const q = useQuery(meQuery());
  return { user: q.data ?? null, loading: q.isPending };
}

/** True while logging out: the signed-in pages then give way to the landing page, not to sign-in. */
let loggingOut = false;
export const isLoggingOut = () => loggingOut;

/** Logout always ends signed out, even when the request fails (spec §8). */
export function useLogout() {
  const qc = useQueryClient();
  const navigate = useNavigate();
  return async () => {
    try {
      await unwrap(api.auth.logout.$post());
    } catch (err) {
      console.error("Logout request failed", err);
    }
    loggingOut = true;
    try {
      qc.setQueryData(meQuery().queryKey, null);
      qc.removeQueries({ predicate: (q) => q.queryKey[0] !== "auth" && q.queryKey[0] !== "config" });
      await navigate({ to: "/" });
    } finally {
      loggingOut = false;
    }
  };
}
