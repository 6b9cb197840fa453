import { useLayoutEffect, useRef } from "react";

/**
 * A check's output as plain text: mostly a log, whose failure is at the end, so a long one (a job
 * log's tail) opens scrolled to its last lines. It scrolls, so it takes keyboard focus.
 */
export function CheckOutput({ title, body }: { title: string | null; body: string }) {
  const box = useRef<HTMLPreElement>(null);
  useLayoutEffect(() => {
    const el = box.current;
    if (el) el.scrollTop = el.scrollHeight;
  }, [body]);
  return (
    <pre
      ref={box}
      tabIndex={0}
      aria-label={`Output of check ${title ?? ""}`}
      data-testid="check-output"
      className="mt-1 max-h-64 overflow-auto rounded bg-slate-50 p-2 text-xs break-words whitespace-pre-wrap dark:bg-slate-900"
    >
      {body}
    </pre>
  );
}
