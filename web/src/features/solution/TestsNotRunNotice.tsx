import { AlertTriangle } from "lucide-react";
import { SANDBOX_OFF_STATEMENT, testsNotRunSandboxOff, type SolutionTests } from "@fixloop/contract";

/**
 * What a solution made with the sandbox off says first, wherever it is shown (its review page's
 * header, the run's result): its tests were not run. Nothing when they were.
 */
export function TestsNotRunNotice({
  tests,
  className = "",
}: {
  tests: SolutionTests | null | undefined;
  className?: string;
}) {
  if (!testsNotRunSandboxOff(tests)) return null;
  return (
    <p
      role="note"
      data-testid="tests-not-run"
      className={`flex items-start gap-2 rounded-lg border border-amber-300 bg-amber-50 p-3 text-sm font-medium text-amber-950 dark:border-amber-800 dark:bg-amber-950/40 dark:text-amber-100 ${className}`}
    >
      <AlertTriangle className="mt-0.5 size-4 shrink-0" aria-hidden />
      {SANDBOX_OFF_STATEMENT}
    </p>
  );
}
