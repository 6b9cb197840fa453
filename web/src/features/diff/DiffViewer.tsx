import { useEffect, useLayoutEffect, useMemo, useRef, useState, type ReactNode } from "react";
import { ChevronDown } from "lucide-react";
import { splitHidden } from "@fixloop/contract";
import { Badge } from "../../ui/ui";
import { useDiffLayout } from "./diff-layout";
import type { Token } from "./highlight";
import { sideBySide, unified, type Row, type UnifiedRow } from "./side-by-side";

export interface FileDiffInput {
  filename: string;
  oldContent: string;
  newContent: string;
  action: "create" | "modify" | "delete";
  /** Extra controls shown in the header, e.g. the file editor toggle. */
  actions?: ReactNode;
  /** Shown beside the file name, e.g. "Changed in refinement #2". */
  marker?: ReactNode;
  /** What the left side is ("previous content" unless told). */
  oldLabel?: string;
}

const ACTION_TONE = { create: "green", modify: "blue", delete: "red" } as const;
const loadHighlighter = () => import("./highlight");

/** Both texts as highlighted lines, once the highlighter has loaded (plain text until then). */
function useHighlighted(filename: string, oldText: string, newText: string) {
  const [lines, setLines] = useState<{ old: Token[][] | null; new: Token[][] | null }>({ old: null, new: null });
  useEffect(() => {
    let live = true;
    void loadHighlighter().then(
      (h) => live && setLines({ old: h.highlightLines(filename, oldText), new: h.highlightLines(filename, newText) }),
    );
    return () => {
      live = false;
    };
  }, [filename, oldText, newText]);
  return lines;
}

export function DiffViewer({
  filename,
  oldContent,
  newContent,
  action,
  actions,
  marker,
  oldLabel = "previous content",
}: FileDiffInput) {
  const [open, setOpen] = useState(true);
  const { layout } = useDiffLayout();
  const oldText = action === "create" ? "" : oldContent;
  const newText = action === "delete" ? "" : newContent;
  const split = useMemo(() => sideBySide(oldText, newText), [oldText, newText]);
  const rows = useMemo(() => (layout === "unified" ? unified(oldText, newText) : null), [layout, oldText, newText]);
  const hl = useHighlighted(filename, oldText, newText);
  const scroller = useRef<HTMLDivElement>(null);

  // Open each file at its first change, with two lines of context above it.
  useLayoutEffect(() => {
    const box = scroller.current;
    let top = box?.querySelector<HTMLElement>("[data-change]");
    if (!box || !top) return;
    for (let i = 0; i < 2 && top.previousElementSibling instanceof HTMLElement; i++) top = top.previousElementSibling;
    box.scrollTop = top.previousElementSibling
      ? top.getBoundingClientRect().top - box.getBoundingClientRect().top + box.scrollTop
      : 0;
  }, [open, layout, oldText, newText]);

  return (
    <div
      className="overflow-hidden rounded-xl border border-slate-200 dark:border-slate-800"
      data-testid="file-diff"
      data-filename={filename}
      data-layout={layout}
    >
      <div className="flex flex-wrap items-center gap-2 bg-slate-50 px-3 py-2 dark:bg-slate-900">
        <button
          type="button"
          aria-expanded={open}
          onClick={() => setOpen((v) => !v)}
          title={filename}
          className="flex min-w-0 flex-1 basis-48 items-start gap-2 text-left"
        >
          <ChevronDown
            className={`mt-0.5 size-4 shrink-0 transition-transform ${open ? "" : "-rotate-90"}`}
            aria-hidden
          />
          <span className="min-w-0 font-mono text-sm break-all" data-testid="file-name">
            {filename}
          </span>
        </button>
        {marker}
        <Badge tone={ACTION_TONE[action]}>{action}</Badge>
        <span className="font-mono text-xs text-green-700 dark:text-green-400">+{split.added}</span>
        <span className="font-mono text-xs text-red-700 dark:text-red-400">-{split.removed}</span>
        {actions}
      </div>
      {open && (
        <div
          ref={scroller}
          className="max-h-96 overflow-auto"
          tabIndex={0}
          role="region"
          aria-label={`Diff of ${filename}`}
        >
          {action === "create" && (
            <p className="px-3 py-1 text-xs text-slate-600 dark:text-slate-400">New file - no previous content</p>
          )}
          {action === "delete" && (
            <p className="px-3 py-1 text-xs text-red-700 dark:text-red-400">File will be deleted</p>
          )}
          <table className="w-full border-collapse font-mono text-xs">
            <caption className="sr-only">
              {rows
                ? `Changes to ${filename}, removed lines marked -, added lines marked +`
                : `Changes to ${filename}: ${oldLabel} on the left, new content on the right`}
            </caption>
            <tbody>
              {rows
                ? rows.map((row, i) => <UnifiedDiffRow key={i} row={row} hl={hl} />)
                : split.rows.map((row, i) => <SplitDiffRow key={i} row={row} hl={hl} />)}
            </tbody>
          </table>
        </div>
      )}
    </div>
  );
}

type Highlighted = ReturnType<typeof useHighlighted>;
const NUM = "w-8 select-none px-1 text-right align-top text-slate-600 dark:text-slate-400";
const REMOVED = "bg-red-100 text-red-950 dark:bg-red-950/60 dark:text-red-100";
const ADDED = "bg-green-100 text-green-950 dark:bg-green-950/60 dark:text-green-100";
const CODE = "whitespace-pre-wrap break-all px-2 align-top";

/**
 * Text with its hidden characters shown as their code points: a direction override or a
 * zero-width space in a changed line would otherwise reorder or hide what the reviewer reads.
 */
function Visible({ text }: { text: string }) {
  const parts = splitHidden(text);
  if (parts.length === 1 && !parts[0]?.hidden) return <>{text}</>;
  return (
    <>
      {parts.map((p, i) =>
        p.hidden ? (
          <span
            key={i}
            data-hidden-char={p.hidden}
            title={`Invisible character ${p.hidden}`}
            className="mx-px rounded bg-amber-200 px-0.5 text-[0.7em] font-semibold text-amber-950 dark:bg-amber-700 dark:text-amber-50"
          >
            {p.hidden}
          </span>
        ) : (
          p.text
        ),
      )}
    </>
  );
}

function Code({ text, tokens }: { text: string; tokens: Token[] | undefined }) {
  if (!tokens) return <Visible text={text} />;
  return (
    <>
      {tokens.map((t, i) =>
        t.cls ? (
          <span key={i} className={t.cls}>
            <Visible text={t.text} />
          </span>
        ) : (
          <Visible key={i} text={t.text} />
        ),
      )}
    </>
  );
}

function SplitDiffRow({ row, hl }: { row: Row; hl: Highlighted }) {
  const change = row.left?.removed || row.right?.added;
  return (
    <tr data-change={change ? "" : undefined}>
      <td className={NUM}>{row.left?.n ?? ""}</td>
      <td className={`w-1/2 ${CODE} ${row.left?.removed ? REMOVED : ""}`}>
        {row.left && (
          <>
            {row.left.removed ? "- " : "  "}
            <Code text={row.left.text} tokens={hl.old?.[row.left.n - 1]} />
          </>
        )}
      </td>
      <td className={NUM}>{row.right?.n ?? ""}</td>
      <td className={`w-1/2 ${CODE} ${row.right?.added ? ADDED : ""}`}>
        {row.right && (
          <>
            {row.right.added ? "+ " : "  "}
            <Code text={row.right.text} tokens={hl.new?.[row.right.n - 1]} />
          </>
        )}
      </td>
    </tr>
  );
}

function UnifiedDiffRow({ row, hl }: { row: UnifiedRow; hl: Highlighted }) {
  const tokens = row.new !== null ? hl.new?.[row.new - 1] : row.old !== null ? hl.old?.[row.old - 1] : undefined;
  const tone = row.kind === "removed" ? REMOVED : row.kind === "added" ? ADDED : "";
  return (
    <tr data-change={row.kind === "context" ? undefined : ""} className={tone}>
      <td className={NUM}>{row.old ?? ""}</td>
      <td className={NUM}>{row.new ?? ""}</td>
      <td className={CODE}>
        {row.kind === "removed" ? "- " : row.kind === "added" ? "+ " : "  "}
        <Code text={row.text} tokens={tokens} />
      </td>
    </tr>
  );
}
