import { useEffect, useRef } from "react";
import { EditorView, basicSetup } from "codemirror";
import { EditorState, type Extension } from "@codemirror/state";
import { javascript } from "@codemirror/lang-javascript";
import { python } from "@codemirror/lang-python";
import { oneDark } from "@codemirror/theme-one-dark";

function language(filename: string): Extension[] {
  if (/\.(m|c)?[jt]sx?$/.test(filename))
    return [javascript({ jsx: /x$/.test(filename), typescript: /\.(m|c)?tsx?$/.test(filename) })];
  if (/\.py$/.test(filename)) return [python()];
  return [];
}

/** CodeMirror 6 over one file; loaded on demand so the editor never weighs on first load. */
export default function FileEditor({
  filename,
  initial,
  onChange,
  onReady,
}: {
  filename: string;
  initial: string;
  onChange: (text: string) => void;
  onReady?: () => void;
}) {
  const host = useRef<HTMLDivElement>(null);
  const change = useRef(onChange);
  change.current = onChange;
  const ready = useRef(onReady);
  ready.current = onReady;
  useEffect(() => {
    if (!host.current) return;
    const dark = document.documentElement.classList.contains("dark");
    const view = new EditorView({
      parent: host.current,
      state: EditorState.create({
        doc: initial,
        extensions: [
          basicSetup,
          ...language(filename),
          ...(dark ? [oneDark] : []),
          EditorView.contentAttributes.of({ "aria-label": `Edit ${filename}` }),
          EditorView.updateListener.of((u) => u.docChanged && change.current(u.state.doc.toString())),
          EditorView.theme({ "&": { maxHeight: "24rem", fontSize: "12px" }, ".cm-scroller": { overflow: "auto" } }),
        ],
      }),
    });
    view.focus();
    ready.current?.();
    return () => view.destroy();
  }, [filename, initial]);
  return (
    <div
      ref={host}
      className="overflow-hidden rounded-lg border border-slate-300 dark:border-slate-700"
      data-testid="file-editor"
    />
  );
}
