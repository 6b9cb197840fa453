import type { AiModel } from "../../api/types";

export const DEFAULT_MODEL_HINT = "llama-3.3-70b-versatile";

/** Preference, else the spec's default Llama 3.3 70B versatile, else the first allowed model. */
export function initialModel(models: AiModel[], preferred: string | null): string {
  return (
    models.find((m) => m.id === preferred)?.id ??
    models.find((m) => m.id.includes(DEFAULT_MODEL_HINT) && m.allowed)?.id ??
    models.find((m) => m.allowed)?.id ??
    models[0]?.id ??
    ""
  );
}

export function ModelPicker({
  models,
  value,
  onChange,
  disabled,
}: {
  models: AiModel[];
  value: string;
  onChange: (id: string) => void;
  disabled?: boolean;
}) {
  const current = models.find((m) => m.id === value);
  return (
    <div className="min-w-0 flex-1">
      <label htmlFor="model" className="block text-sm font-medium">
        AI model
      </label>
      <select
        id="model"
        value={value}
        disabled={disabled}
        onChange={(e) => onChange(e.target.value)}
        className="mt-1 w-full rounded-lg border border-slate-300 bg-white px-3 py-2 dark:border-slate-600 dark:bg-slate-900"
      >
        {models.map((m) => (
          <option key={m.id} value={m.id}>
            {m.name} ({m.provider}){m.sandbox ? " · sandbox" : ""}
            {m.allowed ? "" : " · Pro"}
          </option>
        ))}
      </select>
      {current && <p className="mt-1 text-xs text-slate-600 dark:text-slate-400">{current.description}</p>}
    </div>
  );
}
