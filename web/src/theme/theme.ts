import { useSyncExternalStore } from "react";

export type ThemePreference = "system" | "light" | "dark";
const KEY = "theme-preference";
const listeners = new Set<() => void>();

function read(): ThemePreference {
  const v = localStorage.getItem(KEY);
  return v === "light" || v === "dark" ? v : "system";
}

function apply(pref: ThemePreference) {
  const dark = pref === "dark" || (pref === "system" && matchMedia("(prefers-color-scheme: dark)").matches);
  document.documentElement.classList.toggle("dark", dark);
}

export function setTheme(pref: ThemePreference) {
  localStorage.setItem(KEY, pref);
  apply(pref);
  listeners.forEach((l) => l());
}

if (typeof window !== "undefined") {
  matchMedia("(prefers-color-scheme: dark)").addEventListener("change", () => apply(read()));
}

export function useTheme(): ThemePreference {
  return useSyncExternalStore(
    (cb) => {
      listeners.add(cb);
      return () => listeners.delete(cb);
    },
    read,
    () => "system",
  );
}
