import { useEffect, useRef, useState } from "react";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { parseGithubRef } from "@fixloop/contract";
import { repositoriesQuery } from "../../api/repositories.queries";
import { configQuery } from "../../api/auth.queries";
import { useNavigate } from "@tanstack/react-router";
import { toast } from "sonner";
import { errorMessage } from "../../api/errors";
import { Button, Card, PageHeader, Spinner } from "../../ui/ui";
import { PENDING_ISSUE_KEY } from "../landing/pending-issue";
import { contributionsApi, type IssuePreview } from "./contribute.api";
import { IssuePreviewCard } from "./IssuePreviewCard";
import { isIssuesPage } from "./prefill";

type Step = "input" | "preview" | "importing";

const NOT_AN_ISSUE = "Please provide a GitHub issue URL, not just a repository URL";

/** `initialUrl`: a checked `?url=` (see prefill.ts) the input starts with; nothing is looked up until the user asks. */
export function ContributePage({ initialUrl }: { initialUrl?: string }) {
  const navigate = useNavigate();
  const qc = useQueryClient();
  const [step, setStep] = useState<Step>("input");
  const [url, setUrl] = useState(initialUrl ?? "");
  const input = useRef<HTMLInputElement>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [preview, setPreview] = useState<IssuePreview | null>(null);
  const [importError, setImportError] = useState<string | null>(null);
  const pendingTaken = useRef(false);
  const repos = useQuery(repositoriesQuery());
  const examples = useQuery(configQuery()).data?.exampleIssueUrls ?? [];

  const lookUp = async (raw: string) => {
    const value = raw.trim();
    if (!value) return setError("Please enter a GitHub issue URL");
    setError(null);
    setImportError(null);
    setBusy(true);
    try {
      setError(await loadPreview(value));
    } finally {
      setBusy(false);
    }
  };

  /** Parses, then fetches the preview; answers the error to show, or null once on the preview step. */
  const loadPreview = async (value: string): Promise<string | null> => {
    // The server's own parser, run here first: a repository or its issues page gets this page's
    // guidance at once. Only what it rejects goes to the server, whose message says what is accepted.
    let parsed = parseGithubRef(value);
    if (!parsed && isIssuesPage(value)) return NOT_AN_ISSUE;
    if (!parsed) {
      try {
        ({ parsed } = await contributionsApi.parse(value));
      } catch (e) {
        return errorMessage(e, "Invalid URL");
      }
    }
    if (parsed.type !== "issue" || parsed.issueNumber === null) return NOT_AN_ISSUE;
    try {
      setPreview(
        await contributionsApi.fetchIssue({ owner: parsed.owner, repo: parsed.repo, issueNumber: parsed.issueNumber }),
      );
    } catch (e) {
      return errorMessage(e, "Failed to fetch issue details");
    }
    setStep("preview");
    return null;
  };

  // A prefilled repository's issues page wants its number: the caret waits at its end.
  useEffect(() => {
    const el = input.current;
    if (!initialUrl || !el) return;
    el.focus();
    el.setSelectionRange(el.value.length, el.value.length);
  }, [initialUrl]);

  useEffect(() => {
    if (pendingTaken.current) return;
    pendingTaken.current = true;
    const pending = localStorage.getItem(PENDING_ISSUE_KEY);
    if (!pending) return;
    localStorage.removeItem(PENDING_ISSUE_KEY);
    setUrl(pending);
    void lookUp(pending);
  }, []);

  /** The issue was imported before: its solve page, as Continue Solving opens it (no new solve is started). */
  const continueSolving = (issueId: string) => {
    toast.info("This issue is already in your dashboard!");
    void navigate({ to: "/issues/$issueId/solve", params: { issueId } });
  };

  const importIssue = async (acknowledgeWarnings: boolean) => {
    if (!preview) return;
    if (preview.alreadyImported && preview.existingIssueId) return continueSolving(preview.existingIssueId);
    const { owner, repo, issueNumber } = preview.parsed;
    setImportError(null);
    setStep("importing");
    try {
      const res = await contributionsApi.importIssue({
        owner,
        repo,
        issueNumber: issueNumber ?? preview.issue.number,
        acknowledgeWarnings,
      });
      if (!("issue" in res)) {
        toast.info("The fork is being created; the issue will appear in Issues shortly.");
        return void navigate({ to: "/issues" });
      }
      void qc.invalidateQueries({ queryKey: ["issues"] });
      // Imported since the preview was loaded (another tab, or under the repository's old name): the
      // API answers the earlier import, which may already have a solution or a run.
      if (res.alreadyImported) return continueSolving(res.issue._id);
      toast.success("Issue imported successfully!");
      if (res.fork.isNew) toast.info(`Fork created: ${res.fork.fullName}`, { duration: 5000 });
      // "Import & Solve": the solve page starts the run on arrival and shows it live (or why it could not start).
      void navigate({ to: "/issues/$issueId/solve", params: { issueId: res.issue._id }, search: { start: true } });
    } catch (e) {
      const message = errorMessage(e, "Failed to import issue");
      toast.error(message);
      setImportError(message);
      setStep("preview");
    }
  };

  const needsNumber = isIssuesPage(url);
  return (
    <>
      <PageHeader title="Contribute to Open Source" />
      {step === "input" && (
        <Card>
          <form
            onSubmit={(e) => {
              e.preventDefault();
              void lookUp(url);
            }}
          >
            <label htmlFor="contribute-url" className="block text-sm font-medium">
              GitHub issue URL
            </label>
            <div className="mt-1 flex flex-col gap-2 sm:flex-row">
              <input
                ref={input}
                id="contribute-url"
                value={url}
                onChange={(e) => {
                  setUrl(e.target.value);
                  // The message was about what was there before: editing the URL answers it.
                  setError(null);
                }}
                placeholder="https://github.com/owner/repo/issues/123"
                aria-invalid={!!error}
                aria-describedby={
                  [error && "contribute-error", needsNumber && "contribute-hint"].filter(Boolean).join(" ") || undefined
                }
                className="min-w-0 flex-1 rounded-lg border border-slate-300 bg-white px-3 py-2 aria-[invalid=true]:border-red-600 dark:border-slate-600 dark:bg-slate-900 dark:aria-[invalid=true]:border-red-400"
              />
              <Button type="submit" busy={busy}>
                Preview Issue
              </Button>
            </div>
            {error && (
              <p id="contribute-error" role="alert" className="mt-2 text-sm text-red-700 dark:text-red-400">
                {error}
              </p>
            )}
            {needsNumber && (
              <p id="contribute-hint" className="mt-2 text-sm text-slate-600 dark:text-slate-400">
                Add the issue&apos;s number after /issues/, or paste the issue&apos;s URL.
              </p>
            )}
          </form>
          {examples.length > 0 && (
            <div className="mt-4 text-sm">
              <p className="text-slate-700 dark:text-slate-300">Try an issue from the sandbox GitHub:</p>
              <ul className="mt-1 space-y-1">
                {examples.map((example) => (
                  <li key={example}>
                    <button
                      type="button"
                      onClick={() => {
                        setUrl(example);
                        void lookUp(example);
                      }}
                      className="break-all text-left text-violet-800 underline dark:text-violet-300"
                    >
                      {example}
                    </button>
                  </li>
                ))}
              </ul>
            </div>
          )}
        </Card>
      )}
      {step === "preview" && preview && (
        <IssuePreviewCard
          preview={preview}
          needsAuthorization={repos.data?.requiresAuthorization ?? false}
          onImport={(ack) => void importIssue(ack)}
          onBack={() => {
            setImportError(null);
            setStep("input");
          }}
          importError={importError}
        />
      )}
      {step === "importing" && <Spinner label="Forking the repository and importing the issue..." />}
    </>
  );
}
