import { useCallback, useState, type ReactNode } from "react";
import type { User } from "../api/types";
import { CommandPalette } from "./CommandPalette";
import { NavDrawer } from "./NavDrawer";
import { PreferencesDialog } from "./PreferencesDialog";
import { ShortcutsDialog } from "./ShortcutsDialog";
import { Sidebar } from "./Sidebar";
import { TopBar } from "./TopBar";
import { useShortcuts } from "./useShortcuts";

export function AppShell({ user, children }: { user: User; children: ReactNode }) {
  const [dialog, setDialog] = useState<"palette" | "prefs" | "keys" | "nav" | null>(null);
  const close = useCallback(() => setDialog(null), []);
  const openPalette = useCallback(() => setDialog("palette"), []);
  const openKeys = useCallback(() => setDialog("keys"), []);
  useShortcuts(openPalette, openKeys);
  return (
    <div className="min-h-dvh">
      <a
        href="#main"
        className="sr-only focus:not-sr-only focus:fixed focus:top-2 focus:left-2 focus:z-50 focus:rounded focus:bg-white focus:p-2 dark:focus:bg-slate-900"
      >
        Skip to content
      </a>
      <Sidebar user={user} onPreferences={() => setDialog("prefs")} onShortcuts={openKeys} />
      <NavDrawer
        open={dialog === "nav"}
        onClose={close}
        user={user}
        onPreferences={() => setDialog("prefs")}
        onShortcuts={openKeys}
      />
      <div className="md:pl-14">
        <TopBar onSearch={openPalette} onMenu={() => setDialog("nav")} menuOpen={dialog === "nav"} />
        <main id="main" className="mx-auto max-w-6xl px-3 pt-6 pb-24 sm:px-6 sm:pb-6">
          {children}
        </main>
      </div>
      <CommandPalette open={dialog === "palette"} onClose={close} />
      <PreferencesDialog open={dialog === "prefs"} onClose={close} />
      <ShortcutsDialog open={dialog === "keys"} onClose={close} />
    </div>
  );
}
