import type { SolutionTests, TestsStatus, TestsSummary } from "@fixloop/api/client";
import { Badge, type Tone } from "../../ui/ui";

const STATUS: Record<TestsStatus, { label: string; tone: Tone }> = {
  passed: { label: "Passed", tone: "green" },
  failed: { label: "Failed", tone: "red" },
  error: { label: "Error", tone: "orange" },
  skipped: { label: "Not run", tone: "gray" },
};

/** Why tests did not run (or could not finish), in words a reviewer can act on. */
export function testsReason(t: Pick<SolutionTests, "status" | "backend" | "command" | "reason">): string | null {
  if (t.status === "skipped" && t.backend === "off") return "Tests are off on this server";
  if (t.status === "skipped" && t.command === null) return t.reason ?? "No test command found; add .fixloop.yml";
  if (t.status === "skipped" || t.status === "error") return t.reason ?? null;
  return null;
}

/** Passed / Failed / Error / Not run; the list's summary adds the patched tree's counts. */
export function TestsBadge({ tests }: { tests: TestsSummary | null }) {
  if (!tests) return <Badge tone="gray">Tests: not run</Badge>;
  const s = STATUS[tests.status];
  const counts = tests.status === "skipped" ? "" : ` · ${tests.passed} passed, ${tests.failed} failed`;
  return (
    <span data-testid="tests-badge" data-status={tests.status}>
      <Badge tone={s.tone}>
        Tests: {s.label}
        {counts}
      </Badge>
    </span>
  );
}

export function TestsStatusBadge({ status }: { status: TestsStatus }) {
  const s = STATUS[status];
  return <Badge tone={s.tone}>{s.label}</Badge>;
}
