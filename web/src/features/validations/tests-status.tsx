import { testsVerdict, type SolutionTests, type TestsSummary, type TestsVerdict } from "@fixloop/contract";
import { Badge, type Tone } from "../../ui/ui";

/** One colour per verdict, the same in the list badge, the tests panel and the live log. */
export const VERDICT_TONE: Record<TestsVerdict["kind"], Tone> = {
  passed: "green",
  preexisting: "yellow",
  regressions: "red",
  "could-not-run": "orange",
  "not-run": "gray",
  stale: "gray",
};

const VERDICT_TEXT: Record<TestsVerdict["kind"], string> = {
  passed: "text-green-800 dark:text-green-300",
  preexisting: "text-yellow-800 dark:text-yellow-300",
  regressions: "text-red-800 dark:text-red-300",
  "could-not-run": "text-orange-800 dark:text-orange-300",
  "not-run": "text-slate-700 dark:text-slate-300",
  stale: "text-slate-700 dark:text-slate-300",
};
const VERDICT_DOT: Record<TestsVerdict["kind"], string> = {
  passed: "bg-green-600",
  preexisting: "bg-yellow-500",
  regressions: "bg-red-600",
  "could-not-run": "bg-orange-500",
  "not-run": "bg-slate-400",
  stale: "bg-slate-400",
};

/**
 * The verdict line, in its colour: the same words the pull request body uses. It is the panel's
 * one statement of the verdict (a badge of its kind beside it said "passed" a second time).
 */
export function VerdictText({ tests }: { tests: SolutionTests }) {
  const v = testsVerdict(tests);
  return (
    <p className={`flex items-start gap-2 text-sm font-medium ${VERDICT_TEXT[v.kind]}`}>
      <span aria-hidden className={`mt-1.5 size-2 shrink-0 rounded-full ${VERDICT_DOT[v.kind]}`} />
      <span data-testid="tests-verdict" data-kind={v.kind} className="break-words">
        {v.text}
      </span>
    </p>
  );
}

/** The list's badge: "Tests: " and the verdict. */
export function TestsBadge({ tests }: { tests: TestsSummary | null }) {
  if (!tests) return <Badge tone="gray">Tests: not run</Badge>;
  return (
    <span data-testid="tests-badge" data-status={tests.status} data-kind={tests.kind} className="max-w-full">
      <Badge tone={VERDICT_TONE[tests.kind]}>
        <span className="break-words">Tests: {tests.verdict}</span>
      </Badge>
    </span>
  );
}
