import { useEffect } from "react";
import { Link, Navigate, useNavigate } from "@tanstack/react-router";
import { toast } from "sonner";
import { ShieldCheck } from "lucide-react";
import { GithubIcon } from "../../ui/GithubIcon";
import { useAuth } from "../../auth/auth";
import { Logo } from "../../shell/Logo";
import { ThemeSwitcher } from "../../theme/ThemeSwitcher";
import { buttonClass, Spinner } from "../../ui/ui";
import { forgetReturnTo, peekReturnTo, rememberReturnTo, safeAppPath } from "../../auth/return-to";

/**
 * `error` is the OAuth failure code the server redirects back with; `next` the app page asked for
 * while signed out (already checked to be one), kept for after the GitHub round trip.
 */
export function AuthPage({ error, next }: { error?: string; next?: string }) {
  const { user, loading } = useAuth();
  const navigate = useNavigate();
  useEffect(() => {
    if (next) rememberReturnTo(next);
    // Signing in from the landing page forgets a page asked for earlier; a failed attempt keeps it.
    else if (!error) forgetReturnTo();
  }, [next, error]);
  useEffect(() => {
    if (!error) return;
    toast.error(
      error === "oauth.denied" ? "GitHub authorization was cancelled" : "GitHub sign-in failed, please try again",
    );
    const kept = peekReturnTo();
    void navigate({ to: "/auth", search: kept ? { next: kept } : {}, replace: true });
  }, [error, navigate]);
  useEffect(() => {
    const safe = safeAppPath(next);
    if (user && safe) void navigate({ href: safe, replace: true });
  }, [user, next, navigate]);
  if (loading) return <Spinner label="Checking authentication..." />;
  if (user && next) return <Spinner label="Opening the page you asked for..." />;
  if (user) return <Navigate to="/dashboard" replace />;
  return (
    <div className="min-h-dvh">
      <header className="flex items-center justify-between p-4">
        <Link to="/" aria-label="Fixloop home" className="rounded">
          <Logo />
        </Link>
        <ThemeSwitcher />
      </header>
      <main className="mx-auto max-w-md px-4 py-10">
        <h1 className="text-3xl font-semibold">Sign in to Fixloop</h1>
        <p className="mt-2 text-slate-700 dark:text-slate-300">Resolve GitHub issues with AI, reviewed by you.</p>
        <a href="/api/auth/github" className={`${buttonClass("primary")} mt-8 w-full py-3 text-base`}>
          <GithubIcon /> Continue with GitHub
        </a>
        <section className="mt-8 rounded-xl border border-slate-200 p-4 dark:border-slate-800">
          <h2 className="flex items-center gap-2 font-medium">
            <ShieldCheck className="size-5 text-violet-700 dark:text-violet-300" aria-hidden /> Why GitHub?
          </h2>
          <p className="mt-2 text-sm text-slate-700 dark:text-slate-300">
            Fixloop works on your GitHub issues and opens pull requests for you. Signing in only reads your profile and
            email; repository access is a separate grant you give later, for the repositories you choose.
          </p>
        </section>
        <p className="mt-6 text-sm text-slate-600 dark:text-slate-400">
          By continuing you agree to the{" "}
          <a href="/terms" className="underline">
            Terms of Service
          </a>{" "}
          and the{" "}
          <a href="/privacy" className="underline">
            Privacy Policy
          </a>
          .
        </p>
      </main>
    </div>
  );
}
