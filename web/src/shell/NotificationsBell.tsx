import { useCallback, useState } from "react";
import { Bell } from "lucide-react";
import { useDismiss } from "../ui/useDismiss";
import { markSeen, seenAt, useNotificationFeed } from "./notifications.feed";
import { InlineMarkdown } from "../ui/InlineMarkdown";

/** Recent run and pull-request events of the signed-in user. */
export function NotificationsBell() {
  const [open, setOpen] = useState(false);
  const closeMenu = useCallback(() => setOpen(false), []);
  const ref = useDismiss<HTMLDivElement>(open, closeMenu);
  const { items, isError } = useNotificationFeed();
  const [seen, setSeen] = useState(seenAt);
  const unread = items.filter((n) => n.at > seen).length;
  return (
    <div ref={ref} className="relative">
      <button
        type="button"
        aria-label={`Notifications${unread ? ` (${unread} unread)` : ""}`}
        aria-expanded={open}
        onClick={() => {
          if (!open) {
            markSeen();
            setSeen(seenAt());
          }
          setOpen((v) => !v);
        }}
        className="relative rounded-lg p-2 hover:bg-slate-100 dark:hover:bg-slate-800"
      >
        <Bell className="size-5" aria-hidden />
        {unread > 0 && <span className="absolute top-1 right-1 size-2 rounded-full bg-red-600" aria-hidden />}
      </button>
      {open && (
        <div className="fixed inset-x-2 top-14 z-40 rounded-xl border border-slate-200 bg-white p-2 shadow-lg sm:absolute sm:inset-x-auto sm:right-0 sm:top-full sm:mt-1 sm:w-80 dark:border-slate-700 dark:bg-slate-900">
          <h2 className="px-2 py-1 text-sm font-semibold">Notifications</h2>
          {isError && <p className="px-2 py-3 text-sm">Notifications could not be loaded.</p>}
          {!isError && items.length === 0 && (
            <p className="px-2 py-3 text-sm text-slate-600 dark:text-slate-400">No recent activity</p>
          )}
          <ul className="max-h-80 overflow-y-auto">
            {items.map((n) => (
              <li key={n.id} className="rounded-md px-2 py-2 text-sm hover:bg-slate-50 dark:hover:bg-slate-800">
                <p className="text-xs font-medium text-slate-600 uppercase dark:text-slate-400">{n.kind}</p>
                {n.link ? (
                  <a href={n.link} className="underline-offset-2 hover:underline">
                    <InlineMarkdown>{n.message}</InlineMarkdown>
                  </a>
                ) : (
                  <p>
                    <InlineMarkdown>{n.message}</InlineMarkdown>
                  </p>
                )}
                <p className="text-xs text-slate-600 dark:text-slate-400">{new Date(n.at).toLocaleString()}</p>
              </li>
            ))}
          </ul>
        </div>
      )}
    </div>
  );
}
