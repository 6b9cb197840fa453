import { useEffect } from "react";
import { useNavigate } from "@tanstack/react-router";
import { NAV_ITEMS } from "./nav";

function typing(t: EventTarget | null): boolean {
  const el = t as HTMLElement | null;
  return !!el && (el.isContentEditable || ["INPUT", "TEXTAREA", "SELECT"].includes(el.tagName));
}

/** Global keys: Ctrl/Cmd+K palette, "?" shortcuts, "g" then a letter to navigate. */
export function useShortcuts(openPalette: () => void, openShortcuts: () => void) {
  const navigate = useNavigate();
  useEffect(() => {
    let gAt = 0;
    const onKey = (e: KeyboardEvent) => {
      if ((e.ctrlKey || e.metaKey) && e.key.toLowerCase() === "k") {
        e.preventDefault();
        openPalette();
        return;
      }
      if (e.ctrlKey || e.metaKey || e.altKey || typing(e.target)) return;
      if (e.key === "?") return openShortcuts();
      if (e.key === "g") {
        gAt = Date.now();
        return;
      }
      if (Date.now() - gAt < 1000) {
        const item = NAV_ITEMS.find((n) => n.key === e.key);
        gAt = 0;
        if (item) void navigate({ to: item.to });
      }
    };
    document.addEventListener("keydown", onKey);
    return () => document.removeEventListener("keydown", onKey);
  }, [navigate, openPalette, openShortcuts]);
}
