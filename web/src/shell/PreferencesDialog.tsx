import { useState } from "react";
import { useQuery } from "@tanstack/react-query";
import { toast } from "sonner";
import { modelsQuery } from "../api/models.queries";
import { setTheme, useTheme, type ThemePreference } from "../theme/theme";
import { Button } from "../ui/ui";
import { Dialog } from "../ui/Dialog";
import { getDefaultModel, setDefaultModel } from "./preferences";

export function PreferencesDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  return (
    <Dialog open={open} onClose={onClose} title="Preferences">
      {open && <PreferencesForm onClose={onClose} />}
    </Dialog>
  );
}

export function PreferencesForm({ onClose }: { onClose?: () => void }) {
  const theme = useTheme();
  const models = useQuery(modelsQuery());
  const [model, setModel] = useState(getDefaultModel() ?? "");
  const [pref, setPref] = useState<ThemePreference>(theme);
  const field =
    "mt-1 w-full rounded-lg border border-slate-300 bg-white px-3 py-2 dark:border-slate-600 dark:bg-slate-800";
  return (
    <form
      onSubmit={(e) => {
        e.preventDefault();
        setDefaultModel(model);
        setTheme(pref);
        toast.success("Preferences saved");
        onClose?.();
      }}
      className="space-y-4"
    >
      <label className="block text-sm font-medium">
        Default model
        <select value={model} onChange={(e) => setModel(e.target.value)} className={field}>
          <option value="">Server default</option>
          {(models.data?.allModels ?? []).map((m) => (
            <option key={m.id} value={m.id} disabled={!m.allowed}>
              {m.name}
              {m.allowed ? "" : " (upgrade required)"}
            </option>
          ))}
        </select>
      </label>
      <label className="block text-sm font-medium">
        Theme
        <select value={pref} onChange={(e) => setPref(e.target.value as ThemePreference)} className={field}>
          <option value="system">System</option>
          <option value="light">Light</option>
          <option value="dark">Dark</option>
        </select>
      </label>
      <div className="flex justify-end gap-2">
        {onClose && (
          <Button variant="secondary" onClick={onClose}>
            Cancel
          </Button>
        )}
        <Button type="submit">Save</Button>
      </div>
    </form>
  );
}
