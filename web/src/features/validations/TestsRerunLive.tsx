import { useEffect, useLayoutEffect, useRef, useState } from "react";
import { useQueryClient } from "@tanstack/react-query";
import { Loader2 } from "lucide-react";
import type { LiveTestCounts, TestsEvent } from "@fixloop/contract";
import { openLiveSource } from "../../api/live-source";
import { solutionQuery } from "../../api/validations.queries";
import { CountsLine } from "../solve/TestLog";

/** Output kept on the page (the last characters). */
const OUTPUT_MAX = 64 * 1024;

/**
 * The tests running again on the hand-edited files, live: output and counts as the worker streams
 * them; when the re-run ends the solution is loaded again with its fresh evidence.
 */
export function TestsRerunLive({ solutionId, revision }: { solutionId: string; revision: number }) {
  const qc = useQueryClient();
  const [output, setOutput] = useState("");
  const [counts, setCounts] = useState<LiveTestCounts | null>(null);
  const box = useRef<HTMLPreElement>(null);
  useEffect(() => {
    return openLiveSource(`/api/validations/${solutionId}/tests/events`, (source) => {
      // A new connection replays the stream from its start.
      setOutput("");
      setCounts(null);
      source.addEventListener("tests", (m: MessageEvent<string>) => {
        const e = JSON.parse(m.data) as TestsEvent;
        setOutput((o) => (o + e.output).slice(-OUTPUT_MAX));
        setCounts(e.counts);
      });
      source.addEventListener("end", () => {
        source.close();
        void qc.invalidateQueries({ queryKey: solutionQuery(solutionId).queryKey });
      });
    });
  }, [solutionId, revision, qc]);
  useLayoutEffect(() => {
    if (box.current) box.current.scrollTop = box.current.scrollHeight;
  }, [output]);
  return (
    <div className="space-y-2" data-testid="tests-rerun" role="status">
      <p className="flex items-center gap-2 text-sm font-medium">
        <Loader2 className="size-4 animate-spin" aria-hidden /> Running the tests again on the edited code…
      </p>
      {counts && <CountsLine counts={counts} />}
      <pre
        ref={box}
        className="max-h-64 overflow-auto whitespace-pre-wrap break-all rounded bg-slate-950 p-2 font-mono text-xs text-slate-100"
        data-testid="tests-rerun-log"
      >
        {output || "Waiting for the sandbox…"}
      </pre>
    </div>
  );
}
