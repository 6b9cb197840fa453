import type { PreviousVersion, SolutionView } from "../../api/validations.queries";
import type { RefinementChange } from "./EditableFile";

type File = SolutionView["filesChanged"][number];

/** How the latest refinement changed this file; undefined when it left the file as it was. */
export function refinedChange(previous: PreviousVersion, file: File, refinement: number): RefinementChange | undefined {
  // A file the previous version left alone was then as the repository has it.
  const before =
    previous.files.find((p) => p.filename === file.filename) ??
    (file.action === "create"
      ? undefined
      : { filename: file.filename, action: "modify" as const, content: file.originalContent });
  if (before && before.content === file.content && before.action === file.action) return undefined;
  return { refinement, before };
}

/** What refinement #N changed against the version it started from, and the feedback it answered. */
export function RefinementSummary({
  previous,
  files,
  refinement,
}: {
  previous: PreviousVersion;
  files: File[];
  refinement: number;
}) {
  const changed = files.filter((f) => refinedChange(previous, f, refinement)).map((f) => f.filename);
  const dropped = previous.files.filter((p) => !files.some((f) => f.filename === p.filename)).map((p) => p.filename);
  return (
    <div
      role="note"
      data-testid="refinement-summary"
      className="rounded-xl border border-violet-200 bg-violet-50 p-3 text-sm dark:border-violet-900 dark:bg-violet-950/40"
    >
      <p className="font-medium">
        Refinement #{refinement}{" "}
        {changed.length + dropped.length === 0
          ? "changed no file"
          : `changed ${changed.length + dropped.length} ${changed.length + dropped.length === 1 ? "file" : "files"}`}
      </p>
      {previous.feedback && <p className="mt-1 text-slate-700 dark:text-slate-300">Feedback: “{previous.feedback}”</p>}
      {(changed.length > 0 || dropped.length > 0) && (
        <ul className="mt-1 font-mono text-xs break-all">
          {changed.map((f) => (
            <li key={f}>{f}</li>
          ))}
          {dropped.map((f) => (
            <li key={f}>{f} (no longer changed)</li>
          ))}
        </ul>
      )}
    </div>
  );
}
