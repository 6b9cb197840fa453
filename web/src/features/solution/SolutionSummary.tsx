import type { ReactNode } from "react";
import { Card } from "../../ui/ui";

/** The analysis, proposed solution and changed files of a solution, as the solve and validate pages show them. */
export function SolutionSummary({ analysis, proposedSolution, analysisFooter, files }: { analysis: string; proposedSolution: string; analysisFooter?: ReactNode; files: ReactNode }) {
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
      <section aria-labelledby="files-title" className="space-y-3">
        <h2 id="files-title" className="font-semibold">Files Changed</h2>
        {files}
      </section>
    </>
  );
}
