import type { ReactNode } from "react";
import { Card } from "../../ui/ui";

/** The analysis, proposed solution and changed files of a solution, as the solve and validate pages show them. */
export function SolutionSummary({
  analysis,
  proposedSolution,
  analysisFooter,
  files,
  filesAction,
  filesIntro,
  aside,
}: {
  analysis: string;
  proposedSolution: string;
  analysisFooter?: ReactNode;
  files: ReactNode;
  /** Beside the "Files Changed" heading (e.g. the diff layout toggle). */
  filesAction?: ReactNode;
  /** Above the files (e.g. what the latest refinement changed). */
  filesIntro?: ReactNode;
  /** Shown beside the changed files on wide screens, under them on narrow ones (e.g. the Tests panel). */
  aside?: ReactNode;
}) {
  const filesSection = (
    <section aria-labelledby="files-title" className="min-w-0 space-y-3">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h2 id="files-title" className="font-semibold">
          Files Changed
        </h2>
        {filesAction}
      </div>
      {filesIntro}
      {files}
    </section>
  );
  return (
    <>
      <Card>
        <h2 className="font-semibold">AI Analysis</h2>
        <p className="mt-2 whitespace-pre-wrap text-sm">{analysis}</p>
        {analysisFooter}
      </Card>
      <Card>
        <h2 className="font-semibold">Proposed Solution</h2>
        <p className="mt-2 whitespace-pre-wrap text-sm">{proposedSolution}</p>
      </Card>
      {aside ? (
        <div className="grid items-start gap-4 xl:grid-cols-[minmax(0,1fr)_22rem]">
          {filesSection}
          <div className="xl:sticky xl:top-4 xl:mt-8">{aside}</div>
        </div>
      ) : (
        filesSection
      )}
    </>
  );
}
