import { AlertTriangle, Ban, Info } from "lucide-react";
import { Card } from "../../ui/ui";
import type { ContributionFinding } from "./contribute.api";

function FindingItem({ finding }: { finding: ContributionFinding }) {
  const Icon = finding.severity === "blocking" ? Ban : finding.severity === "warning" ? AlertTriangle : Info;
  const color =
    finding.severity === "blocking"
      ? "text-red-600"
      : finding.severity === "warning"
        ? "text-amber-600"
        : "text-slate-500";
  return (
    <li className="flex gap-2" data-code={finding.code}>
      <Icon className={`mt-0.5 size-4 shrink-0 ${color}`} aria-hidden />
      <span>
        {finding.source ? (
          <>
            <code className="text-xs">{finding.source.path}</code>: <q>{finding.source.sentence}</q>
            {finding.code === "setup_network_requested" && <span className="block">{finding.message}</span>}
          </>
        ) : (
          finding.message
        )}
      </span>
    </li>
  );
}

/** The contribution checks: blocking findings stop the import; warnings need the user's acknowledgement. */
export function ContributionFindings({
  findings,
  acknowledged,
  onAcknowledge,
}: {
  findings: ContributionFinding[];
  acknowledged: boolean;
  onAcknowledge: (v: boolean) => void;
}) {
  const blocking = findings.filter((f) => f.severity === "blocking");
  const warnings = findings.filter((f) => f.severity === "warning");
  const notes = findings.filter((f) => f.severity === "note");
  return (
    <>
      {blocking.length > 0 && (
        <Card className="border-red-300 dark:border-red-800">
          <h2 className="font-semibold text-red-800 dark:text-red-300">This issue can't be imported</h2>
          <ul className="mt-2 space-y-1 text-sm" data-testid="blocking-findings" role="alert">
            {blocking.map((f) => (
              <FindingItem key={`${f.code}-${f.source?.path ?? ""}`} finding={f} />
            ))}
          </ul>
        </Card>
      )}
      {blocking.length === 0 && warnings.length > 0 && (
        <Card className="border-amber-300 dark:border-amber-800">
          <h2 className="font-semibold">Before you contribute</h2>
          <ul className="mt-2 space-y-1 text-sm" data-testid="warning-findings">
            {warnings.map((f) => (
              <FindingItem key={`${f.code}-${f.source?.path ?? ""}`} finding={f} />
            ))}
          </ul>
          <label className="mt-3 flex items-center gap-2 text-sm font-medium">
            <input type="checkbox" checked={acknowledged} onChange={(e) => onAcknowledge(e.target.checked)} />I have
            read these warnings and want to continue
          </label>
        </Card>
      )}
      {notes.length > 0 && (
        <Card>
          <h2 className="font-semibold">Contribution rules</h2>
          <ul className="mt-2 space-y-1 text-sm" data-testid="note-findings">
            {notes.map((f) => (
              <FindingItem key={`${f.code}-${f.source?.path ?? ""}`} finding={f} />
            ))}
          </ul>
        </Card>
      )}
    </>
  );
}
