import { Markdown } from "../../ui/Markdown";

/** An issue's body as a scrollable, keyboard-reachable region. */
export function IssueDescription({ body }: { body: string | null | undefined }) {
  return (
    <div
      tabIndex={0}
      role="region"
      aria-label="Issue description"
      className="mt-3 max-h-64 overflow-auto text-sm text-slate-800 dark:text-slate-200"
    >
      {body?.trim() ? <Markdown>{body}</Markdown> : "No description provided"}
    </div>
  );
}
