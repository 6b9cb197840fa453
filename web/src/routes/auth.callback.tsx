import { useEffect, useRef } from "react";
import { createFileRoute, useNavigate } from "@tanstack/react-router";
import { useQueryClient } from "@tanstack/react-query";
import { toast } from "sonner";
import { meQuery } from "../api/auth.queries";
import { errorMessage, unwrap } from "../api/errors";
import { api } from "../api/client";
import { Spinner } from "../ui/ui";
import { PENDING_ISSUE_KEY } from "../features/landing/pending-issue";
import { takeReturnTo } from "../auth/return-to";

export const Route = createFileRoute("/auth/callback")({
  validateSearch: (s: Record<string, unknown>): { token?: string } =>
    typeof s.token === "string" ? { token: s.token } : {},
  component: AuthCallback,
});

/** Exchanges the one-time login code for the session cookie, then removes it from the address bar. */
function AuthCallback() {
  const { token } = Route.useSearch();
  const navigate = useNavigate();
  const qc = useQueryClient();
  const started = useRef(false);
  useEffect(() => {
    if (started.current) return;
    started.current = true;
    window.history.replaceState(null, "", "/auth/callback");
    if (!token) {
      console.error("Sign-in callback arrived without a login code");
      void navigate({ to: "/", replace: true });
      return;
    }
    unwrap(api.auth.session.$post({ json: { token } }))
      .then(({ user }) => {
        qc.setQueryData(meQuery().queryKey, user);
        // The page asked for while signed out, then an issue pasted on the landing page, then the dashboard.
        const next = takeReturnTo();
        const pending = localStorage.getItem(PENDING_ISSUE_KEY);
        if (next) void navigate({ href: next, replace: true });
        else if (pending) void navigate({ to: "/contribute", replace: true });
        else void navigate({ to: "/dashboard", replace: true });
      })
      .catch((err: unknown) => {
        toast.error(errorMessage(err, "Sign-in failed"));
        void navigate({ to: "/", replace: true });
      });
  }, [token, navigate, qc]);
  return <Spinner label="Signing you in..." />;
}
