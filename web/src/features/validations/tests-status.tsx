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

/** The verdict line: the same words the pull request body uses. */
export function VerdictText({ tests }: { tests: SolutionTests }) {
  const v = testsVerdict(tests);
  return (
    <p className="text-sm font-medium" data-testid="tests-verdict" data-kind={v.kind}>
      {v.text}
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

const KIND_LABEL: Record<TestsVerdict["kind"], string> = {
  passed: "passed",
  preexisting: "passed",
  regressions: "regressions",
  "could-not-run": "could not run",
  "not-run": "not run",
  stale: "stale",
};

/** The panel header's short badge: the verdict's kind in a word or two (the verdict line says the rest). */
export function TestsKindBadge({ tests }: { tests: SolutionTests }) {
  const v = testsVerdict(tests);
  return <Badge tone={VERDICT_TONE[v.kind]}>{KIND_LABEL[v.kind]}</Badge>;
}
