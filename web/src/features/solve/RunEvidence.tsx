import { useState } from "react";
import { testsVerdict } from "@fixloop/contract";
import type { Run } from "../../api/runs.queries";
import { StepsPanel } from "./StepsPanel";
import { isEvidence } from "./TestLog";

/**
 * A finished run's evidence: its steps (with each one's files, notes and warnings, the reason a
 * reproduction test was or was not kept among them) and the tests verdict (with the test log while
 * the page that watched the run stays open), above the solution it produced. The summary line carries the verdict, so it reads unopened.
 */
export function RunEvidence({ run, open }: { run: Run; open: boolean }) {
  // Open when the page watched the run: the panel it followed stays where it was. Folded when the
  // finished page is opened later; the user's choice is left alone after that.
  const [initiallyOpen] = useState(open);
  const tests = run.steps.find((s) => s.id === "validating")?.detail.tests;
  const verdict = isEvidence(tests) ? testsVerdict(tests) : null;
  return (
    <details
      open={initiallyOpen}
      className="group rounded-xl border border-slate-200 dark:border-slate-800"
      data-testid="run-evidence"
    >
      <summary className="cursor-pointer p-4 text-sm font-semibold">
        Steps and tests of this run
        {verdict && (
          <span className="font-normal text-slate-700 dark:text-slate-300" data-testid="run-evidence-verdict">
            {" "}
            · Tests: {verdict.text}
          </span>
        )}
      </summary>
      <div className="px-2 pb-2">
        <StepsPanel run={run} />
      </div>
    </details>
  );
}
