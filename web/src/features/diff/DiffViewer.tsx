import { useMemo, useState, type ReactNode } from "react";
import { ChevronDown } from "lucide-react";
import { Badge } from "../../ui/ui";
import { sideBySide, type Row } from "./side-by-side";

export interface FileDiffInput {
  filename: string;
  oldContent: string;
  newContent: string;
  action: "create" | "modify" | "delete";
  /** Extra controls shown in the header, e.g. the file editor toggle. */
  actions?: ReactNode;
}

const ACTION_TONE = { create: "green", modify: "blue", delete: "red" } as const;

export function DiffViewer({ filename, oldContent, newContent, action, actions }: FileDiffInput) {
  const [open, setOpen] = useState(true);
  const diff = useMemo(
    () => sideBySide(action === "create" ? "" : oldContent, action === "delete" ? "" : newContent),
    [oldContent, newContent, action],
  );
  return (
    <div className="overflow-hidden rounded-xl border border-slate-200 dark:border-slate-800" data-testid="file-diff" data-filename={filename}>
      <div className="flex flex-wrap items-center gap-2 bg-slate-50 px-3 py-2 dark:bg-slate-900">
        <button type="button" aria-expanded={open} onClick={() => setOpen((v) => !v)} className="flex min-w-0 flex-1 items-center gap-2 text-left">
          <ChevronDown className={`size-4 shrink-0 transition-transform ${open ? "" : "-rotate-90"}`} aria-hidden />
          <span className="truncate font-mono text-sm">{filename}</span>
        </button>
        <Badge tone={ACTION_TONE[action]}>{action}</Badge>
        <span className="font-mono text-xs text-green-700 dark:text-green-400">+{diff.added}</span>
        <span className="font-mono text-xs text-red-700 dark:text-red-400">-{diff.removed}</span>
        {actions}
      </div>
      {open && (
        <div className="max-h-96 overflow-auto" tabIndex={0} role="region" aria-label={`Diff of ${filename}`}>
          {action === "create" && <p className="px-3 py-1 text-xs text-slate-600 dark:text-slate-400">New file - no previous content</p>}
          {action === "delete" && <p className="px-3 py-1 text-xs text-red-700 dark:text-red-400">File will be deleted</p>}
          <table className="w-full border-collapse font-mono text-xs">
            <caption className="sr-only">Changes to {filename}: previous content on the left, new content on the right</caption>
            <tbody>
              {diff.rows.map((row, i) => (
                <DiffRow key={i} row={row} />
              ))}
            </tbody>
          </table>
        </div>
      )}
    </div>
  );
}

function DiffRow({ row }: { row: Row }) {
  const num = "w-8 select-none px-1 text-right align-top text-slate-500 dark:text-slate-400";
  const cell = "w-1/2 whitespace-pre-wrap break-all px-2 align-top";
  return (
    <tr>
      <td className={num}>{row.left?.n ?? ""}</td>
      <td className={`${cell} ${row.left?.removed ? "bg-red-100 text-red-950 dark:bg-red-950/60 dark:text-red-100" : ""}`}>
        {row.left ? (row.left.removed ? "- " : "  ") + row.left.text : ""}
      </td>
      <td className={num}>{row.right?.n ?? ""}</td>
      <td className={`${cell} ${row.right?.added ? "bg-green-100 text-green-950 dark:bg-green-950/60 dark:text-green-100" : ""}`}>
        {row.right ? (row.right.added ? "+ " : "  ") + row.right.text : ""}
      </td>
    </tr>
  );
}
