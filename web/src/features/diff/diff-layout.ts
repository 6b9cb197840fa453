import { useSyncExternalStore } from "react";

export type DiffLayout = "split" | "unified";
const KEY = "diff-layout";
/** Below this width a side-by-side diff leaves too little room per line. */
const NARROW = "(max-width: 767px)";
const listeners = new Set<() => void>();

const preferred = (): DiffLayout => (localStorage.getItem(KEY) === "unified" ? "unified" : "split");
const narrow = () => matchMedia(NARROW).matches;

export function setDiffLayout(layout: DiffLayout) {
  localStorage.setItem(KEY, layout);
  listeners.forEach((l) => l());
}

function subscribe(cb: () => void) {
  const mq = matchMedia(NARROW);
  listeners.add(cb);
  mq.addEventListener("change", cb);
  return () => {
    listeners.delete(cb);
    mq.removeEventListener("change", cb);
  };
}

/** The remembered layout on wide screens; always unified on narrow ones. */
export function useDiffLayout(): { layout: DiffLayout; preferred: DiffLayout; narrow: boolean } {
  const pref = useSyncExternalStore(subscribe, preferred, () => "split" as const);
  const isNarrow = useSyncExternalStore(subscribe, narrow, () => false);
  return { layout: isNarrow ? "unified" : pref, preferred: pref, narrow: isNarrow };
}
