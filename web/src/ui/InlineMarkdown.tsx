import type { ReactNode } from "react";

/** An issue title: plain text except `inline code`, as GitHub shows titles. */
export function InlineMarkdown({ children }: { children: string }): ReactNode {
  return children.split(/(`[^`]+`)/).map((part, i) =>
    part.length > 2 && part.startsWith("`") && part.endsWith("`") ? (
      <code key={i} className="rounded bg-slate-100 px-1 font-mono text-[0.9em] dark:bg-slate-800">
        {part.slice(1, -1)}
      </code>
    ) : (
      part
    ),
  );
}
