import { Dialog } from "../ui/Dialog";
import { SHORTCUTS } from "./nav";

export function ShortcutsDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  return (
    <Dialog open={open} onClose={onClose} title="Keyboard Shortcuts">
      <dl className="divide-y divide-slate-200 dark:divide-slate-700">
        {SHORTCUTS.map((s) => (
          <div key={s.keys} className="flex items-center justify-between gap-4 py-2 text-sm">
            <dt>
              <kbd className="rounded border border-slate-300 px-1.5 py-0.5 font-mono text-xs dark:border-slate-600">
                {s.keys}
              </kbd>
            </dt>
            <dd className="text-right text-slate-700 dark:text-slate-300">{s.description}</dd>
          </div>
        ))}
      </dl>
    </Dialog>
  );
}
