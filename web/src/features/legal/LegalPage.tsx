import { Link } from "@tanstack/react-router";

const TEXT = {
  terms: {
    title: "Terms of Service",
    body: "Fixloop is self-hosted software. The operator of this instance is responsible for its use. Pull requests are created only when you approve them, under your GitHub account.",
  },
  privacy: {
    title: "Privacy Policy",
    body: "Fixloop stores your GitHub profile, the repositories and issues you bring in, and the solutions you generate. GitHub access tokens are encrypted at rest and never leave the server.",
  },
};

export function LegalPage({ kind }: { kind: keyof typeof TEXT }) {
  const t = TEXT[kind];
  return (
    <main className="mx-auto max-w-2xl px-4 py-12">
      <h1 className="text-3xl font-semibold">{t.title}</h1>
      <p className="mt-4 text-slate-700 dark:text-slate-300">{t.body}</p>
      <Link to="/" className="mt-6 inline-block underline">
        Back to home
      </Link>
    </main>
  );
}
