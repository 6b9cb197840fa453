import { useState } from "react";
import { Link, Navigate, useNavigate } from "@tanstack/react-router";
import { Brain, FileSearch, GitPullRequest, Languages, ListChecks, ShieldCheck, Zap } from "lucide-react";
import { useAuth } from "../../auth/auth";
import { buttonClass, Spinner } from "../../ui/ui";
import { GithubIcon } from "../../ui/GithubIcon";
import { LandingNav } from "./LandingNav";
import { PENDING_ISSUE_KEY } from "./pending-issue";

const FEATURES = [
  {
    Icon: Brain,
    title: "AI-powered issue resolution",
    text: "A model reads the issue and the relevant code, then proposes a patch with its reasoning.",
  },
  {
    Icon: FileSearch,
    title: "Semantic file matching",
    text: "Files are ranked by what the issue talks about, not only by name.",
  },
  {
    Icon: ShieldCheck,
    title: "File-existence verification",
    text: "Every modified file is checked against the repository before you see the patch.",
  },
  {
    Icon: ListChecks,
    title: "Production-grade validation",
    text: "Risk level, change statistics and deterministic checks on every solution.",
  },
  {
    Icon: Zap,
    title: "Live progress",
    text: "Watch each of the five pipeline steps report its real output as it runs.",
  },
  {
    Icon: Languages,
    title: "Broad language support",
    text: "JavaScript, TypeScript, Python, Go, Rust, Java and more.",
  },
];
const STEPS = ["Connect GitHub", "Select an Issue", "Enhanced AI Processing", "Review & Create PR"];

export function LandingPage() {
  const { user, loading } = useAuth();
  const navigate = useNavigate();
  const [url, setUrl] = useState("");
  if (loading) return <Spinner label="Loading..." />;
  if (user) return <Navigate to="/dashboard" replace />;
  const section = "mx-auto max-w-6xl scroll-mt-14 px-4 py-16";
  return (
    <div className="min-h-dvh">
      <LandingNav />
      <main>
        <section className={`${section} text-center`}>
          <h1 className="text-4xl font-bold tracking-tight sm:text-5xl">
            Resolve GitHub issues with AI, reviewed by you
          </h1>
          <p className="mx-auto mt-4 max-w-2xl text-lg text-slate-700 dark:text-slate-300">
            Fixloop proposes a fix, you review and edit it, and approval opens the pull request. Free to start; all you
            need is a GitHub account.
          </p>
          <form
            className="mx-auto mt-8 flex max-w-xl flex-col gap-2 sm:flex-row"
            onSubmit={(e) => {
              e.preventDefault();
              const v = url.trim();
              if (!v) return;
              localStorage.setItem(PENDING_ISSUE_KEY, v);
              void navigate({ to: "/auth" });
            }}
          >
            <label htmlFor="issue-url" className="sr-only">
              Paste GitHub Issue URL
            </label>
            <input
              id="issue-url"
              value={url}
              onChange={(e) => setUrl(e.target.value)}
              placeholder="github.com/owner/repo/issues/123"
              className="min-w-0 flex-1 rounded-lg border border-slate-300 bg-white px-3 py-2 dark:border-slate-600 dark:bg-slate-900"
            />
            <button type="submit" className={buttonClass("primary")}>
              Import Issue
            </button>
          </form>
          <p className="mt-2 text-sm text-slate-600 dark:text-slate-400">Paste GitHub Issue URL</p>
        </section>
        <section id="features" className={section} aria-labelledby="features-title">
          <h2 id="features-title" className="text-center text-3xl font-semibold">
            Features
          </h2>
          <div className="mt-8 grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
            {FEATURES.map(({ Icon, title, text }) => (
              <div key={title} className="rounded-xl border border-slate-200 p-5 dark:border-slate-800">
                <Icon className="size-6 text-violet-700 dark:text-violet-300" aria-hidden />
                <h3 className="mt-3 font-semibold">{title}</h3>
                <p className="mt-1 text-sm text-slate-700 dark:text-slate-300">{text}</p>
              </div>
            ))}
          </div>
        </section>
        <section id="how-it-works" className={section} aria-labelledby="how-title">
          <h2 id="how-title" className="text-center text-3xl font-semibold">
            How It Works
          </h2>
          <ol className="mt-8 grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
            {STEPS.map((s, i) => (
              <li key={s} className="rounded-xl border border-slate-200 p-5 dark:border-slate-800">
                <span className="grid size-8 place-items-center rounded-full bg-violet-700 font-semibold text-white">
                  {i + 1}
                </span>
                <h3 className="mt-3 font-semibold">{s}</h3>
              </li>
            ))}
          </ol>
        </section>
        <section id="benefits" className={section} aria-labelledby="benefits-title">
          <h2 id="benefits-title" className="text-center text-3xl font-semibold">
            Benefits
          </h2>
          <ul className="mx-auto mt-8 grid max-w-3xl gap-3 sm:grid-cols-2">
            <li className="flex gap-2">
              <GitPullRequest className="size-5 shrink-0 text-violet-700 dark:text-violet-300" aria-hidden /> Pull
              requests that follow the repository's own contribution guidelines.
            </li>
            <li className="flex gap-2">
              <ShieldCheck className="size-5 shrink-0 text-violet-700 dark:text-violet-300" aria-hidden /> The AI
              drafts, you decide: nothing is pushed without your approval.
            </li>
            <li className="flex gap-2">
              <GithubIcon className="size-5 shrink-0 text-violet-700 dark:text-violet-300" /> Contribute to any public
              project: we fork it for you.
            </li>
            <li className="flex gap-2">
              <Zap className="size-5 shrink-0 text-violet-700 dark:text-violet-300" aria-hidden /> Repository context is
              cached, so repeated solves start faster.
            </li>
          </ul>
        </section>
        <section className={`${section} text-center`}>
          <h2 className="text-3xl font-semibold">Ready to close your backlog?</h2>
          <Link to="/auth" className={`${buttonClass("primary")} mt-6`}>
            Get Started
          </Link>
        </section>
      </main>
      <footer className="border-t border-slate-200 dark:border-slate-800">
        <div className="mx-auto grid max-w-6xl gap-6 px-4 py-10 text-sm sm:grid-cols-3">
          <FooterCol
            title="Product"
            links={[
              ["Features", "#features"],
              ["Pricing", "/pricing"],
              ["How It Works", "#how-it-works"],
            ]}
          />
          <FooterCol
            title="Resources"
            links={[
              ["Documentation", "https://github.com/fixloop/fixloop#readme"],
              ["API tokens", "/profile-settings"],
            ]}
          />
          <FooterCol
            title="Legal"
            links={[
              ["Terms of Service", "/terms"],
              ["Privacy Policy", "/privacy"],
            ]}
          />
        </div>
      </footer>
    </div>
  );
}

function FooterCol({ title, links }: { title: string; links: [string, string][] }) {
  return (
    <div>
      <h2 className="font-semibold">{title}</h2>
      <ul className="mt-2 space-y-1">
        {links.map(([label, href]) => (
          <li key={label}>
            <a href={href} className="text-slate-700 hover:underline dark:text-slate-300">
              {label}
            </a>
          </li>
        ))}
      </ul>
    </div>
  );
}
