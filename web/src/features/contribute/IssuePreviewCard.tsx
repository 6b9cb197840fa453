import { useState } from "react";
import { ExternalLink } from "lucide-react";
import { Badge, Button, Card, LabelList, buttonClass } from "../../ui/ui";
import { IssueDescription } from "../issues/IssueDescription";
import type { IssuePreview } from "./contribute.api";
import { AuthorizeReposLink } from "../repositories/AuthorizeReposLink";
import { InlineMarkdown } from "../../ui/Markdown";
import { ContributionFindings } from "./ContributionFindings";
import { ForkNote } from "./ForkNote";

export function IssuePreviewCard({
  preview,
  needsAuthorization,
  onImport,
  onBack,
  importError,
}: {
  preview: IssuePreview;
  needsAuthorization: boolean;
  onImport: (acknowledgeWarnings: boolean) => void;
  onBack: () => void;
  /** Why the last import failed; nothing was imported. */
  importError?: string | null;
}) {
  const { repository: repo, issue } = preview;
  const [acknowledged, setAcknowledged] = useState(false);
  const held = !preview.alreadyImported && (preview.blocked || (preview.needsAcknowledgement && !acknowledged));
  return (
    <div className="space-y-4">
      <button type="button" onClick={onBack} className="text-sm text-violet-800 underline dark:text-violet-300">
        ← Back
      </button>
      <Card>
        <p className="flex flex-wrap items-center gap-2 text-sm">
          <a href={repo.htmlUrl} target="_blank" rel="noreferrer" className="font-medium underline">
            {repo.fullName}
          </a>
          {repo.language && <Badge tone="blue">{repo.language}</Badge>}
        </p>
        <h2 className="mt-2 text-xl font-semibold">
          <InlineMarkdown>{issue.title}</InlineMarkdown>{" "}
          <span className="text-slate-500 dark:text-slate-400">#{issue.number}</span>
        </h2>
        <LabelList labels={issue.labels} />
        <IssueDescription body={issue.body} />
      </Card>
      <ContributionFindings findings={preview.findings} acknowledged={acknowledged} onAcknowledge={setAcknowledged} />
      {!preview.alreadyImported && <ForkNote fork={preview.fork} upstream={repo.fullName} />}
      {needsAuthorization && !preview.alreadyImported && (
        <Card className="border-violet-300 dark:border-violet-800">
          <p className="text-sm">
            Forking needs repository access on GitHub, asked for once: Fixloop forks this repository into your account
            and opens the pull request from your fork, which its GitHub App cannot do for a repository it is not
            installed on. Authorize it, then import the issue.
          </p>
          <AuthorizeReposLink className="mt-2" />
        </Card>
      )}
      {importError && (
        <p
          role="alert"
          className="rounded-lg border border-red-300 bg-red-50 p-3 text-sm text-red-800 dark:border-red-800 dark:bg-red-950/40 dark:text-red-200"
        >
          The import failed: {importError}
        </p>
      )}
      <div className="flex flex-wrap gap-2">
        <a href={issue.htmlUrl} target="_blank" rel="noreferrer" className={buttonClass("secondary")}>
          <ExternalLink className="size-4" aria-hidden /> View on GitHub
        </a>
        <Button
          onClick={() => onImport(acknowledged)}
          disabled={held || (needsAuthorization && !preview.alreadyImported)}
        >
          {preview.alreadyImported ? "Continue Solving" : "Import & Solve with AI"}
        </Button>
      </div>
    </div>
  );
}
